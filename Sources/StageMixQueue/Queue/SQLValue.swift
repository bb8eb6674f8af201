/// A value bound into, or read out of, a SQL statement, common to both backends.
public enum SQLValue: Sendable, Hashable {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    init(_ s: String?) { self = s.map(SQLValue.text) ?? .null }
    init(_ d: Double?) { self = d.map(SQLValue.real) ?? .null }
    init(_ i: Int?) { self = i.map(SQLValue.integer) ?? .null }

    var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    var int: Int? {
        switch self {
        case .integer(let i): i
        case .real(let d): Int(d)
        default: nil
        }
    }

    var double: Double? {
        switch self {
        case .real(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }
}

public typealias SQLRow = [String: SQLValue]

extension [String: SQLValue] {
    /// A column that must be present, read as `T`; a corrupt-row error naming the table and column otherwise.
    func required<T>(_ column: String, of table: String, _ read: (SQLValue) -> T?) throws -> T {
        guard let value = self[column].flatMap(read) else { throw QueueError(.corruptRow, "\(table) column \(column) missing") }
        return value
    }
}
