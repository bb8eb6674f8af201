import StageMixJSON
/// Reads typed fields out of a `JSONValue` tree and records, instead of throwing, every field that is
/// missing or of the wrong type, so one pass reports all of a manifest's problems.
struct ManifestWalker {
    /// The manifest's name in problem reports (`session.json`).
    let file: String
    private(set) var problems: [CaptureProblem] = []
    private(set) var warnings: [CaptureProblem] = []

    init(file: String) { self.file = file }

    mutating func problem(_ path: JSONPath, expected: String, found: String) {
        problems.append(CaptureProblem(file: file, path: path.description, expected: expected, found: found))
    }

    mutating func warning(_ path: JSONPath, expected: String, found: String) {
        warnings.append(CaptureProblem(file: file, path: path.description, expected: expected, found: found))
    }

    /// A member converted by `convert`. A missing required member, or one `convert` rejects, is a problem;
    /// a missing optional member is `nil` without one.
    mutating func field<T>(_ object: JSONObject, _ key: String, at path: JSONPath, required: Bool = true,
                           expected: String, _ convert: (JSONValue) -> T?) -> T? {
        let memberPath = path.key(key)
        guard let value = object[key] else {
            if required { problem(memberPath, expected: expected, found: "nothing (the member is missing)") }
            return nil
        }
        return self.value(value, at: memberPath, expected: expected, convert)
    }

    /// A value converted by `convert`, or a problem naming what was found instead.
    mutating func value<T>(_ value: JSONValue, at path: JSONPath, expected: String,
                           _ convert: (JSONValue) -> T?) -> T? {
        guard let converted = convert(value) else {
            problem(path, expected: expected, found: value.summary)
            return nil
        }
        return converted
    }

    /// An object, with its duplicate member names reported.
    mutating func object(_ value: JSONValue, at path: JSONPath, expected: String = "an object") -> JSONObject? {
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

/// Conversions for `ManifestWalker.field`, each `nil` when the value is not of its type.
enum JSONConvert {
    static func string(_ value: JSONValue) -> String? {
        if case .string(let s) = value { return s }
        return nil
    }

    static func nonEmptyString(_ value: JSONValue) -> String? {
        if case .string(let s) = value, !s.isEmpty { return s }
        return nil
    }

    static func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    static func array(_ value: JSONValue) -> [JSONValue]? {
        if case .array(let a) = value { return a }
        return nil
    }

    static func integer(atLeast minimum: Int) -> (JSONValue) -> Int? {
        { value in
            if case .number(let n) = value, let i = n.integer, i >= minimum { return i }
            return nil
        }
    }

    static func enumeration<E: RawRepresentable>(_: E.Type) -> (JSONValue) -> E? where E.RawValue == String {
        { value in string(value).flatMap(E.init(rawValue:)) }
    }
}
