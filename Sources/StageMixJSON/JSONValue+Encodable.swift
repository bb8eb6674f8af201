/// A `JSONValue` through any `Encoder`, as the service writes a document given inline in a request
/// out for the job: numbers by their `Double` value, members by name, so duplicate keys must have been
/// refused before (`duplicateKeyPath`).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        if case .object(let object) = self {
            var container = encoder.container(keyedBy: MemberName.self)
            for (key, value) in object.members { try container.encode(value, forKey: MemberName(stringValue: key)) }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n.value)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object: break
        }
    }

    private struct MemberName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
