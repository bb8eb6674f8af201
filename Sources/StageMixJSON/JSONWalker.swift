/// Reads typed fields out of a `JSONValue` tree and records, instead of throwing, every field that is
/// missing or of the wrong type, so one pass reports all of a document's problems. Captures, layouts,
/// tier and price tables and edit files are read with it.
public struct JSONWalker {
    /// How the problems any document can have are worded. Captures and tables say what was expected
    /// and found (`expected a string, found nothing (the member is missing)`, `found the string "x"`);
    /// layouts, whose authors read docs/layouts.md, speak of fields (`missing required field "name"`,
    /// `unknown field`, `duplicate key`) and quote a found value as written (`found "x"`).
    public enum Wording: Sendable { case expectedFound, fields }

    /// The file's name in problem reports (`session.json`, `prices.json`).
    public let file: String
    public let wording: Wording
    public private(set) var problems: [JSONProblem] = []
    public private(set) var warnings: [JSONProblem] = []

    public init(file: String, wording: Wording = .expectedFound) {
        self.file = file
        self.wording = wording
    }

    public mutating func problem(_ path: JSONPath, expected: String, found: String) {
        problems.append(JSONProblem(file: file, path: path.description, expected: expected, found: found))
    }

    /// A problem said in words, for what is not one value in place of another.
    public mutating func problem(_ path: JSONPath, _ message: String) {
        problems.append(JSONProblem(file: file, path: path.description, message: message))
    }

    public mutating func warning(_ path: JSONPath, expected: String, found: String) {
        warnings.append(JSONProblem(file: file, path: path.description, expected: expected, found: found))
    }

    /// A member converted by `convert`. A missing required member, or one `convert` rejects, is a problem;
    /// a missing optional member is `nil` without one.
    public mutating func field<T>(_ object: JSONObject, _ key: String, at path: JSONPath, required: Bool = true,
                           expected: String, _ convert: (JSONValue) -> T?) -> T? {
        guard let value = member(object, key, at: path, required: required, expected: expected) else { return nil }
        return self.value(value, at: path.key(key), expected: expected, convert)
    }

    /// A member converted by `convert`, or `default` when it is missing; `nil` only when it is there and wrong.
    public mutating func field<T>(_ object: JSONObject, _ key: String, at path: JSONPath, default: T,
                           expected: String, _ convert: (JSONValue) -> T?) -> T? {
        guard let value = object[key] else { return `default` }
        return self.value(value, at: path.key(key), expected: expected, convert)
    }

    /// A member that may be missing or `null`: `.some(nil)` then, `nil` when it is there and wrong.
    public mutating func optionalField<T>(_ object: JSONObject, _ key: String, at path: JSONPath,
                                   expected: String, _ convert: (JSONValue) -> T?) -> T?? {
        guard let value = object[key] else { return .some(nil) }
        if case .null = value { return .some(nil) }
        guard let converted = self.value(value, at: path.key(key), expected: expected, convert) else { return nil }
        return .some(converted)
    }

    /// A member as it is, for a reader that walks into it; a missing required member is a problem.
    public mutating func member(_ object: JSONObject, _ key: String, at path: JSONPath, required: Bool = true,
                                expected: String) -> JSONValue? {
        if let value = object[key] { return value }
        guard required else { return nil }
        switch wording {
        case .expectedFound: problem(path.key(key), expected: expected, found: "nothing (the member is missing)")
        case .fields: problem(path, "missing required field \"\(key)\"")
        }
        return nil
    }

    /// A value converted by `convert`, or a problem naming what was found instead.
    public mutating func value<T>(_ value: JSONValue, at path: JSONPath, expected: String,
                           _ convert: (JSONValue) -> T?) -> T? {
        guard let converted = convert(value) else {
            problem(path, expected: expected, found: found(value))
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
    /// may add some); tier and price tables and layouts are hand-written, where an unknown key is a typo.
    public mutating func rejectUnknown(_ object: JSONObject, allowed: [String], at path: JSONPath) {
        switch wording {
        case .expectedFound:
            var reported = Set<String>()
            for (key, _) in object.members where !allowed.contains(key) && reported.insert(key).inserted {
                problem(path.key(key), expected: "one of the members " + allowed.map { "\"\($0)\"" }.joined(separator: ", "),
                        found: "an unknown member \"\(key)\"")
            }
        case .fields:
            for key in Set(object.members.map(\.key)).sorted() where !allowed.contains(key) {
                problem(path.key(key), "unknown field (expected one of \(allowed.joined(separator: ", ")))")
            }
        }
    }

    /// An object, with its duplicate member names reported: a key given twice would silently lose one
    /// of its values, and the author must choose.
    public mutating func object(_ value: JSONValue, at path: JSONPath, expected: String = "an object") -> JSONObject? {
        guard case .object(let object) = value else {
            problem(path, expected: expected, found: found(value))
            return nil
        }
        for key in object.duplicateKeys {
            switch wording {
            case .expectedFound: problem(path.key(key), expected: "each member name once", found: "\"\(key)\" more than once")
            case .fields: problem(path.key(key), "duplicate key \"\(key)\" (each field may appear once)")
            }
        }
        return object
    }

    /// How a found value reads in this walker's problems: `the string "x"`, or `"x"` as written.
    public func found(_ value: JSONValue) -> String {
        guard wording == .fields else { return value.summary }
        switch value {
        case .number(let number): return number.text
        case .string(let text): return JSONValue.quoted(text)
        case .array: return "an array"
        default: return value.summary
        }
    }
}
