/// A JSON object in document order. Duplicate keys are kept so the reader can report them.
public struct JSONObject: Sendable {
    public var members: [(key: String, value: JSONValue)]

    public init(members: [(key: String, value: JSONValue)]) { self.members = members }

    /// The first member named `key`.
    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// Keys that occur more than once, each once, in order of first repetition.
    public var duplicateKeys: [String] {
        var seen = Set<String>(), reported = Set<String>(), duplicates: [String] = []
        for (key, _) in members where !seen.insert(key).inserted && reported.insert(key).inserted {
            duplicates.append(key)
        }
        return duplicates
    }
}
