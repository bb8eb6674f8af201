/// A parsed JSON value that keeps what `JSONSerialization` loses: member order, duplicate keys,
/// the difference between `true` and `1`, and each number's literal text.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// How a problem report names this value: `the string "x"`, `the number 1.5`, `an array`.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "the number \(n.text)"
        case .string(let s): return "the string \(JSONValue.quoted(s))"
        case .array(let a): return a.isEmpty ? "an empty array" : "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON text of the value, numbers as written.
    var jsonText: String {
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

    static func quoted(_ s: String) -> String {
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

/// A JSON number with its literal text. `integer` is set when the value is a whole number that fits
/// an `Int` (`3`, `3.0`, `3e0`), as JSON Schema's `integer` type counts them.
struct JSONNumber: Sendable {
    var text: String
    var value: Double
    var integer: Int?
}

/// A JSON object in document order. Duplicate keys are kept so the reader can report them.
struct JSONObject: Sendable {
    var members: [(key: String, value: JSONValue)]

    /// The first member named `key`.
    subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// Keys that occur more than once, each once, in order of first repetition.
    var duplicateKeys: [String] {
        var seen = Set<String>(), reported = Set<String>(), duplicates: [String] = []
        for (key, _) in members where !seen.insert(key).inserted && reported.insert(key).inserted {
            duplicates.append(key)
        }
        return duplicates
    }
}
