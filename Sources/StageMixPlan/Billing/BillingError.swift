public import StageMixJSON
/// A billing computation that cannot be completed as configured, or a tier or price table that
/// breaks a rule; `problems` then names the file and JSON path of each.
public struct BillingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    /// Empty for errors that are not about a table's content.
    public var problems: [JSONProblem]

    public init(_ description: String) {
        self.description = description
        self.problems = []
    }

    /// One line per problem: `file: $.path: expected ..., found ...`.
    public init(problems: [JSONProblem]) {
        self.description = problems.map(\.description).joined(separator: "\n")
        self.problems = problems
    }
}
