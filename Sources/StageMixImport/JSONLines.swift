import Foundation
import StageMixJSON

/// A log a user saved as JSON lines (a platform's callbacks or webhooks, one event per line): each
/// line's object, named for problems as `FILE line N`. A missing file, or a line that is not a JSON
/// object, is a problem naming it; blank lines are skipped. The lines' problems are returned beside
/// the objects, so a reader can add its own and report them all at once.
enum JSONLines {
    static func read(_ url: URL, describing what: String) throws -> (lines: [(file: String, object: JSONObject)], problems: [JSONProblem]) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImportError(problems: [JSONProblem(file: url.path, path: "", expected: "\(what) (JSON lines)", found: "no such file")])
        }
        var lines: [(file: String, object: JSONObject)] = []
        var problems: [JSONProblem] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            let file = "\(url.lastPathComponent) line \(index + 1)"
            guard case .object(let object)? = try? JSONTextParser.parse(Array(text.utf8)) else {
                problems.append(JSONProblem(file: file, path: "$", expected: "a JSON object (one line of \(what))", found: "something else"))
                continue
            }
            lines.append((file, object))
        }
        return (lines, problems)
    }
}
