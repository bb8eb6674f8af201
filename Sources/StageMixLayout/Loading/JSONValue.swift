/// A JSON document as a tree, so a layout can be checked field by field with paths.
enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// How the value reads in an error message: `"stretch"`, `1.5`, `true`, `an object`.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context),
             .valueNotFound(_, let context), .keyNotFound(_, let context):
            if let underlying = context.underlyingError {
                return "\(context.debugDescription) \(underlying)"
            }
            return context.debugDescription
        @unknown default:
            return "\(decodingError)"
        }
    }
}
