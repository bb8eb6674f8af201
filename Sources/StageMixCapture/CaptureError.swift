public import StageMixJSON

/// A capture that breaks the contract, with every problem found.
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public var problems: [JSONProblem]
    public init(problems: [JSONProblem]) { self.problems = problems }
    public var description: String {
        "invalid capture (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
