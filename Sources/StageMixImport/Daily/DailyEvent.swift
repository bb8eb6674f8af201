import StageMixCapture
import StageMixJSON

/// One event of a Daily recording's event JSON (docs.daily.co, "Recording event JSON file"): `ts`
/// (Unix seconds, a float), `type`, `participant_id` (the participant's session id) and `data`.
/// Only the track events are read; `data.trackSessionNum` ties the events of one track together:
///
/// - `track-added`: `kind` (audio or video), `trackType`, `displayName`, `paused` (the track starts paused);
/// - `recording-media-started`: `uri` (the track's file, without its extension) and `mediaStartTime`
///   (Unix seconds), `contentType`;
/// - `track-paused` / `track-resumed`: the sender stopped and started again (camera or mic turned off and on);
/// - `track-removed`, `recording-media-finished`: the track's end.
struct DailyEvent: Sendable {
    static let types: Set<String> = ["track-added", "track-removed", "track-paused", "track-resumed",
                                     "recording-media-started", "recording-media-finished"]

    var type: String
    var atMs: Int64
    var participant: String?
    var trackSessionNum: Int64
    var kind: String?
    var trackType: String?
    var displayName: String?
    var paused: Bool?
    var uri: String?
    var mediaStartMs: Int64?
    /// Where it is (`events.jsonl line 3`), and the file it is in: the events of one file are one recording's.
    var document: String
    var group: String

    init?(_ object: JSONObject, type: String, at path: JSONPath, document: String, group: String, _ walker: inout JSONWalker) {
        let seconds = "Unix seconds (a number or a string of digits)"
        let ts = walker.field(object, "ts", at: path, expected: seconds, PlatformClock.unixSeconds)
        participant = walker.field(object, "participant_id", at: path, required: false, expected: "the participant's session id (a string)", JSONConvert.string)
        let dataPath = path.key("data")
        guard let data = walker.field(object, "data", at: path, expected: "the event's data (an object)", { value -> JSONObject? in
            if case .object(let data) = value { return data } else { return nil }
        }) else { return nil }
        let number = walker.field(data, "trackSessionNum", at: dataPath, expected: "the track's number in the recording (a whole number)", PlatformClock.integer)
        kind = walker.field(data, "kind", at: dataPath, required: false, expected: "audio or video", JSONConvert.string)
        trackType = walker.field(data, "trackType", at: dataPath, required: false, expected: "the track's type (a string)", JSONConvert.string)
        let name = walker.optionalField(data, "displayName", at: dataPath, expected: "the participant's name (a string)", JSONConvert.string)
        displayName = name.flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 }
        paused = walker.field(data, "paused", at: dataPath, required: false, expected: "true or false", JSONConvert.bool)
        uri = walker.field(data, "uri", at: dataPath, required: false, expected: "the track's file (a string)", JSONConvert.nonEmptyString)
        mediaStartMs = walker.field(data, "mediaStartTime", at: dataPath, required: false, expected: seconds, PlatformClock.unixSeconds)
        guard let ts, let number else { return nil }
        self.type = type
        atMs = ts
        trackSessionNum = number
        self.document = document
        self.group = group
    }

    /// The contract's source for what `kind` and `trackType` say: a `trackType` naming the screen is a screen share.
    var source: TrackSource? {
        let words = ((kind ?? "") + " " + (trackType ?? "")).lowercased()
        let video = kind.map { $0.lowercased() == "video" } ?? words.contains("video")
        let audio = kind.map { $0.lowercased() == "audio" } ?? words.contains("audio")
        guard video != audio else { return nil }
        let screen = words.contains("screen")
        return video ? (screen ? .screenShare : .camera) : (screen ? .screenShareAudio : .microphone)
    }
}
