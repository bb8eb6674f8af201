/// A setting of `stagemix serve` that cannot work (a keys file, a capture root, an address): said
/// before anything listens.
public struct ServiceSetupError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
