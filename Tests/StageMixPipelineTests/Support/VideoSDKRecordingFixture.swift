import Foundation
import StageMixMedia
import StageMixTestSupport

/// A VideoSDK session's participant track recordings as a bucket holds them, made by the ffmpeg CLI
/// in VideoSDK's shapes (`${sessionId}/${participantId}/${kind}/${filename}`, a new WebM on each
/// unmute or restart, each starting its timestamps at zero; docs.videosdk.live, "Participant Track
/// Recording"), with what each participant did known exactly. The session starts at `zero`:
///
/// - Maya, 0 to 6 s: video red, yellow from 3.4 s; audio in two files (muted at 2.4 s, unmuted at
///   3.4 s), 440 Hz then 660 Hz; a screen share, green, paused: two files, 1 to 2.6 s and 3.4 to 5 s.
/// - Ben joins late, 2 to 6 s: video blue, audio 880 Hz.
/// - The `participant-track-recording-stopped` webhooks (`webhooks.jsonl`), the recordings as the
///   REST API lists them (`api/recordings.json`: `start` ISO for Maya's, Unix milliseconds as a number
///   for Ben's, `end` ISO; `participantId` and `kind` for some, only the files' paths for others), and
///   the session's details with each participant's `timelog` (`api/session.json`).
struct VideoSDKRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let meeting = "jvsg-8rjn-j304", session = "613731342f27f56e4fc4b6d0"
    static let maya = "mayawx4k", ben = "benq7r2d"

    /// Each recording: participant, kind, its files (name, lavfi sources), its start and end (ms from zero).
    static let recordings: [(participant: String, kind: String, files: [(name: String, sources: [String])], start: Int64, end: Int64)] = [
        (maya, "video", [("1795716000000.webm", ["color=c=0xC83020:s=320x180:r=15:d=3.4", "color=c=0xE0D020:s=320x180:r=15:d=2.6"])], 0, 6_000),
        (maya, "audio", [("1795716000000.webm", ["sine=frequency=440:sample_rate=48000:duration=2.4"]),
                         ("1795716003400.webm", ["sine=frequency=660:sample_rate=48000:duration=2.6"])], 0, 6_000),
        (maya, "screen_video", [("1795716001000.webm", ["color=c=0x20A040:s=320x180:r=15:d=1.6"]),
                                ("1795716003400.webm", ["color=c=0x20A040:s=320x180:r=15:d=1.6"])], 1_000, 5_000),
        (ben, "video", [("1795716002000.webm", ["color=c=0x2040C0:s=320x180:r=15:d=4"])], 2_000, 6_000),
        (ben, "audio", [("1795716002000.webm", ["sine=frequency=880:sample_rate=48000:duration=4"])], 2_000, 6_000),
    ]

    let directory: URL

    func file(_ participant: String, _ kind: String, _ name: String) -> URL {
        directory.appendingPathComponent("recordings/\(Self.session)/\(participant)/\(kind)/\(name)")
    }

    static func key(_ participant: String, _ kind: String, _ name: String) -> String { "recordings/\(session)/\(participant)/\(kind)/\(name)" }

    init(in root: URL) throws {
        directory = root.appendingPathComponent("bucket")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("api"), withIntermediateDirectories: true)
        for recording in Self.recordings {
            let folder = file(recording.participant, recording.kind, "x").deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for media in recording.files {
                let target = folder.appendingPathComponent(media.name)
                if recording.kind.hasSuffix("video") {
                    try HundredMsRecordingFixture.video(target, media.sources)
                } else {
                    try HundredMsRecordingFixture.audio(target, media.sources)
                }
            }
        }
        try webhooks().joined(separator: "\n").write(to: directory.appendingPathComponent("webhooks.jsonl"), atomically: true, encoding: .utf8)
        try recordingsResponse().write(to: directory.appendingPathComponent("api/recordings.json"), atomically: true, encoding: .utf8)
        try sessionDetails().write(to: directory.appendingPathComponent("api/session.json"), atomically: true, encoding: .utf8)
    }

    /// One `participant-track-recording-stopped` a recording; `fileDetailsValue` replaces the first's `fileDetails`.
    func webhooks(fileDetailsValue: String? = nil) -> [String] {
        Self.recordings.enumerated().map { i, recording in
            let files = recording.files.map { #"{"filePath":"/\#(Self.key(recording.participant, recording.kind, $0.name))","fileUrl":"https://cdn.videosdk.live/\#(Self.key(recording.participant, recording.kind, $0.name))"}"# }
            return #"{"webhookType":"participant-track-recording-stopped","data":{"meetingId":"\#(Self.meeting)","sessionId":"\#(Self.session)","participantId":"\#(recording.participant)","kind":"\#(recording.kind)","fileDetails":\#(i == 0 ? fileDetailsValue ?? "[\(files.joined(separator: ","))]" : "[\(files.joined(separator: ","))]")}}"#
        }
    }

    /// The track recordings as `GET /v2/recordings/participant/track` lists them.
    func recordingsResponse() -> String {
        let objects = Self.recordings.enumerated().map { i, recording in
            let files = recording.files.map { #"{"fileUrl":"https://cdn.videosdk.live/\#(Self.key(recording.participant, recording.kind, $0.name))","filePath":"\#(Self.key(recording.participant, recording.kind, $0.name))"}"# }
            let start = recording.participant == Self.ben ? "\(Self.zero + recording.start)" : "\"\(HundredMsRecordingFixture.iso(Self.zero + recording.start))\""
            let identity = i % 2 == 0 ? #""participantId":"\#(recording.participant)","kind":"\#(recording.kind)","# : ""
            return #"{"id":"rec\#(i)","roomId":"\#(Self.meeting)","sessionId":"\#(Self.session)",\#(identity)"participantName":"\#(recording.participant == Self.maya ? "Maya" : "Ben")","files":[\#(files.joined(separator: ","))],"webhook":{"status":"delivered"},"start":\#(start),"end":"\#(HundredMsRecordingFixture.iso(Self.zero + recording.end))"}"#
        }
        return #"{"pageInfo":{"currentPage":1,"perPage":20,"lastPage":1,"total":\#(objects.count)},"data":[\#(objects.joined(separator: ","))]}"#
    }

    func sessionDetails() -> String {
        func iso(_ ms: Int64) -> String { HundredMsRecordingFixture.iso(Self.zero + ms) }
        return #"{"id":"\#(Self.session)","meetingId":"\#(Self.meeting)","start":"\#(iso(0))","end":"\#(iso(6_000))","participants":[{"participantId":"\#(Self.maya)","name":"Maya","timelog":[{"start":"\#(iso(0))","end":"\#(iso(6_000))"}]},{"participantId":"\#(Self.ben)","name":"Ben","timelog":[{"start":"\#(iso(2_000))","end":"\#(iso(6_000))"}]}]}"#
    }
}
