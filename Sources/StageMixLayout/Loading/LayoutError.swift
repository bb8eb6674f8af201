public import StageMixJSON

/// Why a layout could not be loaded: every problem found, each with its JSON path.
public struct LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or layout name) as the caller gave it.
    public var file: String
    public var problems: [JSONProblem]

    public init(file: String, problems: [JSONProblem]) {
        self.file = file
        self.problems = problems
    }

    /// One line per problem: `file: $.path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
