import StageMixJSON

/// How a platform's importer finds its documents inside what a user saved (an API answer wrapping a
/// webhook, an array of events, a log): every JSON object, depth first, down to `maxDepth` levels
/// and `maxElements` elements of an array, handed to the platform, which says what it read.
enum DocumentWalk {
    static let maxDepth = 8
    static let maxElements = 1_000_000

    /// Calls `recognise` on each object under `value`. It returns nil when it read the object whole
    /// (nothing below it is looked at), else the names of the members not to look into (those it read).
    static func objects(in value: JSONValue, at path: JSONPath, depth: Int = 0,
                        _ recognise: (JSONObject, JSONPath) -> Set<String>?) {
        guard depth < maxDepth else { return }
        switch value {
        case .array(let elements):
            for (i, element) in elements.prefix(maxElements).enumerated() { objects(in: element, at: path.index(i), depth: depth + 1, recognise) }
        case .object(let object):
            guard let skipped = recognise(object, path) else { return }
            for (key, member) in object.members where !skipped.contains(key) { objects(in: member, at: path.key(key), depth: depth + 1, recognise) }
        default:
            return
        }
    }
}
