/// A parsed JSON value that keeps what `JSONSerialization` loses: member order, duplicate keys,
/// the difference between `true` and `1`, and each number's literal text.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// How a problem report names this value: `the string "x"`, `the number 1.5`, `an array`.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "the number \(n.text)"
        case .string(let s): return "the string \(JSONValue.quoted(s))"
        case .array(let a): return a.isEmpty ? "an empty array" : "an array"
        case .object: return "an object"
        }
    }

    /// The value's type as a request's problem names it: `a string`, `a boolean`, `null`.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Where the first member name given twice in an object is, searching the whole value; `nil` when
    /// every object names each member once.
    public func duplicateKeyPath(at path: JSONPath = .root) -> JSONPath? {
        switch self {
        case .object(let object):
            if let key = object.duplicateKeys.first { return path.key(key) }
            for (key, value) in object.members {
                if let found = value.duplicateKeyPath(at: path.key(key)) { return found }
            }
            return nil
        case .array(let elements):
            for (position, element) in elements.enumerated() {
                if let found = element.duplicateKeyPath(at: path.index(position)) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// Compact JSON text of the value, numbers as written.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.text
        case .string(let s): return JSONValue.quoted(s)
        case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.members.map { JSONValue.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
