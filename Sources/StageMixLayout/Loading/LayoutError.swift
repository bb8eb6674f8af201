/// Why a layout could not be loaded: every problem found, each with its JSON path.
public struct LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or layout name) as the caller gave it.
    public var file: String
    public var problems: [LayoutProblem]

    public init(file: String, problems: [LayoutProblem]) {
        self.file = file
        self.problems = problems
    }

    /// One line per problem: `file: $.path: message`.
    public var description: String {
        problems.map { problem in
            problem.path.isEmpty ? "\(file): \(problem.message)" : "\(file): \(problem.path): \(problem.message)"
        }.joined(separator: "\n")
    }
}

/// One thing wrong with a layout.
public struct LayoutProblem: Sendable, Hashable, CustomStringConvertible {
    /// A JSONPath such as `$.regions[1].fit`; empty when the problem is not about the content.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
