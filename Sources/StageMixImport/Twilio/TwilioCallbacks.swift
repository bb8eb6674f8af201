import Foundation
import StageMixJSON

/// A room's status callbacks as a user saved them: one JSON object per line, the callback's form
/// parameters as members (`StatusCallbackEvent`, `TrackSid`, `Timestamp`, ...). Only what an import
/// uses is read; a line that is not such an object is a problem naming its line.
enum TwilioCallbacks {
    struct Callback {
        var event: String
        var trackSid: String
        var time: Date
    }

    static func read(_ url: URL) throws -> [Callback] {
        let name = url.lastPathComponent
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImportError(problems: [JSONProblem(file: url.path, path: "", expected: "a status callbacks file (JSON lines)", found: "no such file")])
        }
        var callbacks: [Callback] = []
        var problems: [JSONProblem] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            let file = "\(name) line \(index + 1)"
            guard case .object(let object)? = try? JSONTextParser.parse(Array(text.utf8)) else {
                problems.append(JSONProblem(file: file, path: "$", expected: "a JSON object of callback parameters", found: "something else"))
                continue
            }
            guard case .string(let event)? = object["StatusCallbackEvent"] else { continue }
            guard case .string(let stamp)? = object["Timestamp"], let time = PlatformDocument.parseDate(stamp) else {
                problems.append(JSONProblem(file: file, path: "$.Timestamp", expected: "an ISO 8601 time", found: object["Timestamp"]?.summary ?? "nothing"))
                continue
            }
            if case .string(let track)? = object["TrackSid"] { callbacks.append(Callback(event: event, trackSid: track, time: time)) }
        }
        if !problems.isEmpty { throw ImportError(problems: problems) }
        return callbacks
    }
}
