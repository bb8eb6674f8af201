public import StageMixJSON
public import StageMixStorage

/// A capture that breaks the contract, with every problem found; or one that could not be read
/// from its store (`storage`), which may be worth trying again later (``S3Error/isTransient``); or one
/// in a store this process is not set up to reach (`configuration`: the environment's fault, not the capture's).
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public var problems: [JSONProblem]
    public var storage: S3Error?
    public var configuration: StorageConfigurationError?
    public init(problems: [JSONProblem], storage: S3Error? = nil, configuration: StorageConfigurationError? = nil) {
        self.problems = problems
        self.storage = storage
        self.configuration = configuration
    }
    public var description: String {
        if let configuration { return "cannot reach the capture's store: \(configuration)" }
        if let storage { return "cannot read the capture: \(storage)" }
        return "invalid capture (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
