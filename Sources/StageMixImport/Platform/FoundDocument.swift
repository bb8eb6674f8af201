import StageMixJSON

/// One JSON document found under an import's folder: a `.json` file's object (or each object of a
/// top-level array), or one line of a `.jsonl` file. `name` and `root` say where it is in problems
/// (`callbacks/uploaded.json`, `$`; `events.jsonl line 3`, `$`; `saved.json`, `$[2]`), so a platform
/// that finds a member of the wrong type can name the file and the member's JSON path.
struct FoundDocument: Sendable {
    /// The file's path under the folder, with ` line N` for a line of a `.jsonl` file.
    var name: String
    /// The document's own path in that file: `$`, or `$[i]` for an element of a top-level array.
    var root: JSONPath
    var object: JSONObject

    /// A walker whose problems name this document's file.
    func walker() -> JSONWalker { JSONWalker(file: name) }

    /// The object at `keys` below the root (`payload.details`), when each step is an object; nil otherwise.
    func object(at keys: [String]) -> (object: JSONObject, path: JSONPath)? {
        var object = self.object, path = root
        for key in keys {
            guard case .object(let next)? = object[key] else { return nil }
            object = next
            path = path.key(key)
        }
        return (object, path)
    }
}
