import Foundation
import StageMixJSON

/// One LiveKit webhook event as a user logged it: protojson, one event per line (camelCase keys,
/// 64-bit integers as strings, enums as names). Only what an import uses is read: the event's name,
/// `createdAt` (seconds), the participant's identity and name, and the `TrackInfo` (sid, type, source, size).
struct LiveKitWebhook {
    struct Track {
        var sid: String
        var type: String?
        var source: String?
        var width: Int?
        var height: Int?
    }

    var event: String
    var createdAt: Int64
    var identity: String?
    /// `participant.name`: what people call the participant (LiveKit's identity is an id, often a user id).
    var name: String?
    var track: Track?

    static func read(_ url: URL) throws -> [LiveKitWebhook] {
        var (lines, problems) = try JSONLines.read(url, describing: "a webhook log")
        var events: [LiveKitWebhook] = []
        for (file, object) in lines {
            var walker = JSONWalker(file: file)
            let event = walker.field(object, "event", at: .root, expected: "the event's name", JSONConvert.nonEmptyString)
            let created = walker.field(object, "createdAt", at: .root, expected: "seconds since 1970 (a string of digits)", LiveKitExport.nanoseconds)
            let participant = walker.member(object, "participant", at: .root, required: false, expected: "a ParticipantInfo")
                .flatMap { walker.object($0, at: JSONPath.root.key("participant")) }
            let identity = participant.flatMap { walker.field($0, "identity", at: JSONPath.root.key("participant"), required: false, expected: "a string", JSONConvert.string) }
            let name = participant.flatMap { walker.field($0, "name", at: JSONPath.root.key("participant"), required: false, expected: "a string", JSONConvert.string) }
            var track: Track?
            if let info = walker.member(object, "track", at: .root, required: false, expected: "a TrackInfo").flatMap({ walker.object($0, at: JSONPath.root.key("track")) }) {
                let path = JSONPath.root.key("track")
                if let sid = walker.field(info, "sid", at: path, expected: "the track's sid", JSONConvert.nonEmptyString) {
                    track = Track(sid: sid,
                                  type: walker.field(info, "type", at: path, required: false, expected: "AUDIO or VIDEO", JSONConvert.string),
                                  source: walker.field(info, "source", at: path, required: false, expected: "a track source", JSONConvert.string),
                                  width: walker.field(info, "width", at: path, required: false, expected: "a width", JSONConvert.integer(in: 0...16_384)),
                                  height: walker.field(info, "height", at: path, required: false, expected: "a height", JSONConvert.integer(in: 0...16_384)))
                }
            }
            problems += walker.problems
            if let event, let created { events.append(LiveKitWebhook(event: event, createdAt: created, identity: identity, name: name, track: track)) }
        }
        if !problems.isEmpty { throw ImportError(problems: problems) }
        return events
    }
}
