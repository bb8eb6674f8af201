import Foundation
import StageMixMedia
import StageMixTestSupport

/// A 100ms session's track recordings as a bucket holds them, made by the ffmpeg CLI in 100ms's
/// shapes (a WebM per track; 100ms docs, "Webhook Events" and "Track Events"), with what each peer
/// did known exactly. The session starts at `zero` (2026-11-26T18:00:00Z):
///
/// - Maya, 0 to 6 s: camera red then yellow from 3 s, microphone 440 Hz then 660 Hz from 3 s, muted
///   from 4 to 5 s by `track.update.success` events; a screen share (its own stream), green, 1 to 4 s,
///   paused from 1.5 to 3.5 s: its file has no frame then, and no event says so.
///   The analytics track events (`analytics/track-events.json`) give each of her tracks' `started_at`.
/// - Ben joins late, 2 to 6 s, and leaves: camera blue, microphone 880 Hz. Nothing gives his tracks'
///   start: only his `left_at` and the files' lengths (the success webhooks come 40 s later).
/// - The webhooks as a JSON-lines log (`webhooks/events.jsonl`): `duration` a string for some tracks
///   and a number for others; `joined_at` ISO with nanoseconds, one `left_at` as Unix milliseconds.
struct HundredMsRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let room = "6756f0a1b2c3d4e5f6a7b8c9", session = "6756f0ffee0011223344aabb"
    static let maya = "5d8c0b6e-maya", ben = "9f1a2b3c-ben"
    static let red = RGBColor(r: 0xC8, g: 0x30, b: 0x20), yellow = RGBColor(r: 0xE0, g: 0xD0, b: 0x20)
    static let green = RGBColor(r: 0x20, g: 0xA0, b: 0x40), blue = RGBColor(r: 0x20, g: 0x40, b: 0xC0)

    /// (track id, peer, stream, video?, file).
    static let tracks: [(id: String, peer: String, stream: String, video: Bool)] = [
        ("tr-maya-cam", maya, "st-maya", true), ("tr-maya-mic", maya, "st-maya", false),
        ("tr-maya-screen", maya, "st-maya-screen", true), ("tr-ben-cam", ben, "st-ben", true), ("tr-ben-mic", ben, "st-ben", false),
    ]

    let directory: URL

    /// Where a track's file lies in the folder (a download of the bucket's `recordings/` prefix).
    func file(_ track: String) -> URL {
        let peer = Self.tracks.first { $0.id == track }!.peer
        return directory.appendingPathComponent("\(Self.room)/\(Self.session)/\(peer)/\(track).webm")
    }

    static func iso(_ ms: Int64, nanos: Bool = false) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let text = formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return nanos ? text.replacingOccurrences(of: "Z", with: "123456Z") : text
    }

    static func wholeSeconds(_ ms: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(ms / 1000)))
    }

    init(in root: URL) throws {
        directory = root.appendingPathComponent("bucket")
        for peer in [Self.maya, Self.ben] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("\(Self.room)/\(Self.session)/\(peer)"), withIntermediateDirectories: true)
        }
        for folder in ["webhooks", "analytics"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Self.video(file("tr-maya-cam"), ["color=c=0xC83020:s=320x180:r=15:d=3", "color=c=0xE0D020:s=320x180:r=15:d=3"])
        try Self.audio(file("tr-maya-mic"), ["sine=frequency=440:sample_rate=48000:duration=3", "sine=frequency=660:sample_rate=48000:duration=3"])
        try Self.video(file("tr-maya-screen"), ["color=c=0x20A040:s=320x180:r=15:d=3"], select: "not(between(t,0.5,2.5))")
        try Self.video(file("tr-ben-cam"), ["color=c=0x2040C0:s=320x180:r=15:d=4"])
        try Self.audio(file("tr-ben-mic"), ["sine=frequency=880:sample_rate=48000:duration=4"])
        try webhooks().joined(separator: "\n").write(to: directory.appendingPathComponent("webhooks/events.jsonl"), atomically: true, encoding: .utf8)
        try trackEvents().write(to: directory.appendingPathComponent("analytics/track-events.json"), atomically: true, encoding: .utf8)
    }

    /// The webhooks 100ms posted, one a line; `durationValue` replaces Ben's camera's `duration`.
    func webhooks(durationValue: String = "\"4\"") -> [String] {
        func envelope(_ type: String, _ at: String, _ data: String) -> String {
            #"{"version":"2.0","id":"ev-\#(type)","account_id":"acc","app_id":"app","timestamp":"\#(at)","type":"\#(type)","data":{\#(data)}}"#
        }
        let common = #""room_id":"\#(Self.room)","session_id":"\#(Self.session)""#
        func success(_ track: String, duration: String) -> String {
            let t = Self.tracks.first { $0.id == track }!
            return envelope("track.recording.success", Self.wholeSeconds(Self.zero + 40_000),
                            #"\#(common),"peer_id":"\#(t.peer)","stream_id":"\#(t.stream)","track_id":"\#(track)","track_type":"\#(t.video ? "video" : "audio")","size":"123456","duration":\#(duration),"recording_id":"rec1","recording_path":"s3://hms-bucket/recordings/\#(Self.room)/\#(Self.session)/\#(t.peer)/\#(track).webm","recording_presigned_url":"https://hms-bucket.s3.amazonaws.com/recordings/\#(Self.room)/\#(Self.session)/\#(t.peer)/\#(track).webm?X-Amz-Signature=abc""#)
        }
        return [
            envelope("peer.join.success", Self.wholeSeconds(Self.zero),
                     #"\#(common),"peer_id":"\#(Self.maya)","user_id":"u-maya","user_name":"Maya","role":"host","joined_at":"\#(Self.iso(Self.zero, nanos: true))""#),
            envelope("peer.join.success", Self.wholeSeconds(Self.zero + 2_000),
                     #"\#(common),"peer_id":"\#(Self.ben)","user_id":"u-ben","user_name":"Ben","role":"guest","joined_at":"\#(Self.iso(Self.zero + 2_000, nanos: true))""#),
            envelope("peer.leave.success", Self.wholeSeconds(Self.zero + 6_000),
                     #"\#(common),"peer_id":"\#(Self.ben)","user_name":"Ben","left_at":\#(Self.zero + 6_000),"duration":4,"reason":"client request""#),
            envelope("peer.leave.success", Self.wholeSeconds(Self.zero + 6_000),
                     #"\#(common),"peer_id":"\#(Self.maya)","user_name":"Maya","left_at":"\#(Self.iso(Self.zero + 6_000, nanos: true))","duration":6"#),
            success("tr-maya-cam", duration: "6"), success("tr-maya-mic", duration: "\"6\""), success("tr-maya-screen", duration: "3"),
            success("tr-ben-cam", duration: durationValue), success("tr-ben-mic", duration: "4"),
        ]
    }

    /// The analytics API's answer for Maya's tracks: added (with `started_at`), her microphone muted
    /// and unmuted, her screen share removed.
    func trackEvents() -> String {
        func event(_ type: String, _ track: String, at: Int64, started: Int64, source: String, mute: Bool, stopped: Int64? = nil) -> String {
            let t = Self.tracks.first { $0.id == track }!
            return #"{"version":"2.0","id":"an-\#(track)-\#(at)","timestamp":"\#(Self.iso(at, nanos: true))","type":"\#(type)","data":{"room_id":"\#(Self.room)","session_id":"\#(Self.session)","peer_id":"\#(t.peer)","user_name":"Maya","joined_at":"\#(Self.iso(Self.zero, nanos: true))","role":"host","track_id":"\#(track)","stream_id":"\#(t.stream)","type":"\#(t.video ? "video" : "audio")","source":"\#(source)","mute":\#(mute),"started_at":"\#(Self.iso(started, nanos: true))"\#(stopped.map { #","stopped_at":"\#(Self.iso($0, nanos: true))""# } ?? "")}}"#
        }
        let events = [
            event("track.add.success", "tr-maya-cam", at: Self.zero, started: Self.zero, source: "regular", mute: false),
            event("track.add.success", "tr-maya-mic", at: Self.zero, started: Self.zero, source: "regular", mute: false),
            event("track.add.success", "tr-maya-screen", at: Self.zero + 1_000, started: Self.zero + 1_000, source: "screen", mute: false),
            event("track.update.success", "tr-maya-mic", at: Self.zero + 4_000, started: Self.zero, source: "regular", mute: true),
            event("track.update.success", "tr-maya-mic", at: Self.zero + 5_000, started: Self.zero, source: "regular", mute: false),
            event("track.remove.success", "tr-maya-screen", at: Self.zero + 4_000, started: Self.zero + 1_000, source: "screen", mute: false, stopped: Self.zero + 4_000),
        ]
        return #"{"limit":50,"total":\#(events.count),"events":[\#(events.joined(separator: ","))]}"#
    }

    /// A VP8 WebM of the `lavfi` colour sources one after another; with `select`, only the frames it
    /// selects, their timestamps kept (a hole where a sender stopped).
    static func video(_ file: URL, _ sources: [String], select: String? = nil) throws {
        let inputs = sources.flatMap { ["-f", "lavfi", "-i", $0] }
        try FFmpegTool.run(inputs + ["-filter_complex", sources.indices.map { "[\($0)]" }.joined() + "concat=n=\(sources.count):v=1:a=0"
                                        + (select.map { ",select='\($0)'" } ?? ""), "-fps_mode", "passthrough",
                                     "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k", "-g", "15", "-pix_fmt", "yuv420p", "-f", "webm", file.path])
    }

    /// An Opus WebM of the `lavfi` tones one after another.
    static func audio(_ file: URL, _ sources: [String]) throws {
        let inputs = sources.flatMap { ["-f", "lavfi", "-i", $0] }
        try FFmpegTool.run(inputs + ["-filter_complex", sources.indices.map { "[\($0)]" }.joined() + "concat=n=\(sources.count):v=0:a=1",
                                     "-c:a", "libopus", "-b:a", "48k", "-ac", "1", "-f", "webm", file.path])
    }
}
