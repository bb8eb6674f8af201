/// A scenario that cannot be synthesized, or a file that could not be written.
public struct SynthError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
