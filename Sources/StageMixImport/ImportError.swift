public import StageMixJSON

/// Another platform's recording that cannot be imported, with every problem found: the file, the JSON
/// path, what was expected and found (exit 65).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var problems: [JSONProblem]

    public init(problems: [JSONProblem]) { self.problems = problems }

    public var description: String {
        "cannot import (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
