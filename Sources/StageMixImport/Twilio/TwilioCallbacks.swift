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
        var (lines, problems) = try JSONLines.read(url, describing: "a status callbacks file")
        var callbacks: [Callback] = []
        for (file, object) in lines {
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
