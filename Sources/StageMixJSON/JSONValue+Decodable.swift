/// A `JSONValue` from any `Decoder`, for types that decode themselves through one (as `Layout` does
/// inside a larger document). Through a decoder, duplicate keys and member order are already lost, and
/// a number's text is its value written back; documents read from bytes should use `JSONTextParser`.
extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            let integer = value == value.rounded() && abs(value) < 9e15 ? Int(value) : nil
            self = .number(JSONNumber(text: integer.map(String.init) ?? String(value), value: value, integer: integer))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(JSONObject(members: members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }
}
