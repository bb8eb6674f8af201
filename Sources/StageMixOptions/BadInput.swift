/// Input the user can fix (capture, layout, tables, edits, an output StageMix will not replace):
/// printed as is, exit code 65 on the command line, 422 in the HTTP API. Anything else that escapes
/// a command is an internal failure (exit code 70).
public struct BadInput: Error, CustomStringConvertible {
    public var underlying: any Error
    public init(_ underlying: any Error) { self.underlying = underlying }
    public var description: String { "\(underlying)" }
}
