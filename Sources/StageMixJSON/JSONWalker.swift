/// Reads typed fields out of a `JSONValue` tree and records, instead of throwing, every field that is
/// missing or of the wrong type, so one pass reports all of a document's problems. Captures, tier and
/// price tables and edit files are read with it.
public struct JSONWalker {
    /// The file's name in problem reports (`session.json`, `prices.json`).
    public let file: String
    public private(set) var problems: [JSONProblem] = []
    public private(set) var warnings: [JSONProblem] = []

    public init(file: String) { self.file = file }

    public mutating func problem(_ path: JSONPath, expected: String, found: String) {
        problems.append(JSONProblem(file: file, path: path.description, expected: expected, found: found))
    }

    public mutating func warning(_ path: JSONPath, expected: String, found: String) {
        warnings.append(JSONProblem(file: file, path: path.description, expected: expected, found: found))
    }

    /// A member converted by `convert`. A missing required member, or one `convert` rejects, is a problem;
    /// a missing optional member is `nil` without one.
    public mutating func field<T>(_ object: JSONObject, _ key: String, at path: JSONPath, required: Bool = true,
                           expected: String, _ convert: (JSONValue) -> T?) -> T? {
        let memberPath = path.key(key)
        guard let value = object[key] else {
            if required { problem(memberPath, expected: expected, found: "nothing (the member is missing)") }
            return nil
        }
        return self.value(value, at: memberPath, expected: expected, convert)
    }

    /// A value converted by `convert`, or a problem naming what was found instead.
    public mutating func value<T>(_ value: JSONValue, at path: JSONPath, expected: String,
                           _ convert: (JSONValue) -> T?) -> T? {
        guard let converted = convert(value) else {
            problem(path, expected: expected, found: value.summary)
            return nil
        }
        return converted
    }

    /// A required array member of at most `limit` elements. A longer one is reported and not read
    /// further, so no later stage works in proportion to a count beyond docs/limits.md.
    public mutating func array(_ object: JSONObject, _ key: String, at path: JSONPath, of noun: String,
                        limit: Int) -> [JSONValue]? {
        guard let elements = field(object, key, at: path, expected: "an array of \(noun)", JSONConvert.array) else { return nil }
        guard elements.count <= limit else {
            problem(path.key(key), expected: "at most \(limit) \(noun) (docs/limits.md)", found: "\(elements.count)")
            return nil
        }
        return elements
    }

    /// Members other than `allowed`, each reported. Captures ignore unknown members (a newer recorder
    /// may add some); tier and price tables are hand-written, where an unknown key is a typo.
    public mutating func rejectUnknown(_ object: JSONObject, allowed: [String], at path: JSONPath) {
        var reported = Set<String>()
        for (key, _) in object.members where !allowed.contains(key) && reported.insert(key).inserted {
            problem(path.key(key), expected: "one of the members " + allowed.map { "\"\($0)\"" }.joined(separator: ", "),
                    found: "an unknown member \"\(key)\"")
        }
    }

    /// An object, with its duplicate member names reported.
    public mutating func object(_ value: JSONValue, at path: JSONPath, expected: String = "an object") -> JSONObject? {
        guard case .object(let object) = value else {
            problem(path, expected: expected, found: value.summary)
            return nil
        }
        for key in object.duplicateKeys {
            problem(path.key(key), expected: "each member name once", found: "\"\(key)\" more than once")
        }
        return object
    }
}
