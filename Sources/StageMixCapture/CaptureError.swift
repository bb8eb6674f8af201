public import StageMixJSON
public import StageMixStorage

/// A capture that breaks the contract, with every problem found; or one that could not be read
/// from its store (`storage`), which may be worth trying again later (``S3Error/isTransient``).
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public var problems: [JSONProblem]
    public var storage: S3Error?
    public init(problems: [JSONProblem], storage: S3Error? = nil) {
        self.problems = problems
        self.storage = storage
    }
    public var description: String {
        if let storage { return "cannot read the capture: \(storage)" }
        return "invalid capture (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
