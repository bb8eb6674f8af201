import Foundation
import StageMixMedia
import StageMixTestSupport

/// A Daily raw-tracks recording as its bucket holds it, made by the ffmpeg CLI in Daily's names and
/// shapes (`<recordingStartMs>-<sessionId>-<type>-<trackStartMs>.webm`, VP8 and Opus in WebM, each
/// file's timestamps counting from the recording's start, nothing written while a track is off), with
/// what each participant did known exactly. The recording starts at `zero` (2026-11-26T18:00:00Z):
///
/// - Maya from 0 to 6 s: red camera and 440 Hz; her camera is off from 1.8 to 3.0 s (a gap in its
///   WebM, no event says so); she shares her screen (yellow) from 3.5 s and pauses it from 4.3 to
///   5.0 s (Daily's `track-paused`/`track-resumed`, and no frame in the file);
/// - Omar joins late, at 1.5 s by his files' timestamps: blue with 660 Hz until 3.5 s, then green with
///   880 Hz. His camera file's name says it started at 1.3 s (the name and the file disagree, as
///   Daily's do by some 200 ms); his microphone's name says 1.5 s;
/// - Lena's camera is listed by the webhook but not in the folder, and her microphone's file is empty;
/// - the `recording.ready-to-download` webhook (`webhooks/ready.jsonl`, one line) and the recording's
///   event JSON beside the files (`<s3_key>.event.json`), its instants numbers and strings.
struct DailyRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let maya = "3f2b6c1e-8a4d-4e2f-9b1a-5c7d9e0f1a21", omar = "7c9d2e4f-1b3a-4c5d-8e6f-0a1b2c3d4e52"
    static let lena = "b4e6f8a0-2c4e-4f6a-8b0c-1d3e5f7a9b63"
    static let red = RGBColor(r: 0xC8, g: 0x30, b: 0x20), blue = RGBColor(r: 0x20, g: 0x40, b: 0xC0)
    static let green = RGBColor(r: 0x20, g: 0xA0, b: 0x40), yellow = RGBColor(r: 0xE0, g: 0xD0, b: 0x20)
    static let prefix = "mydomain/panel"

    let directory: URL
    var media: URL { directory.appendingPathComponent(Self.prefix) }

    /// A file's name: `type` such as `cam-video`, started `atMs` after the recording by its name.
    static func name(_ participant: String, _ type: String, at atMs: Int64) -> String {
        "\(zero)-\(participant)-\(type)-\(zero + atMs).webm"
    }

    init(in root: URL, events: Bool = true) throws {
        directory = root.appendingPathComponent("bucket")
        for folder in [media, directory.appendingPathComponent("webhooks")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // Maya's camera, off from 1.8 to 3.0 s; her microphone; her screen from 3.5 s, paused from 4.3 to 5.0 s.
        try Self.video(media.appendingPathComponent(Self.name(Self.maya, "cam-video", at: 0)), ["color=c=0xC83020:s=160x90:r=15:d=6"],
                       dropping: (1.8, 3.0), from: 0)
        try Self.audio(media.appendingPathComponent(Self.name(Self.maya, "cam-audio", at: 0)), [440], seconds: 6, from: 0)
        try Self.video(media.appendingPathComponent(Self.name(Self.maya, "screen-video", at: 3_500)), ["color=c=0xE0D020:s=320x180:r=15:d=2.5"],
                       dropping: (0.8, 1.5), from: 3.5)
        // Omar's camera and microphone, both from 1.5 s by their timestamps; the camera's name says 1.3 s.
        try Self.video(media.appendingPathComponent(Self.name(Self.omar, "cam-video", at: 1_300)),
                       ["color=c=0x2040C0:s=160x90:r=15:d=2", "color=c=0x20A040:s=160x90:r=15:d=2.5"], dropping: nil, from: 1.5)
        try Self.audio(media.appendingPathComponent(Self.name(Self.omar, "cam-audio", at: 1_500)), [660, 880], seconds: 2, from: 1.5, last: 2.5)
        // Lena: a microphone file with nothing in it; her camera's is not there.
        _ = FileManager.default.createFile(atPath: media.appendingPathComponent(Self.name(Self.lena, "cam-audio", at: 500)).path, contents: Data())
        try webhook().write(to: directory.appendingPathComponent("webhooks/ready.jsonl"), atomically: true, encoding: .utf8)
        if events { try eventJSON().write(to: media.appendingPathComponent("\(Self.zero).event.json"), atomically: true, encoding: .utf8) }
    }

    /// The `recording.ready-to-download` webhook, on one line; `s3KeyValue` replaces the first track's key.
    func webhook(s3KeyValue: String? = nil) -> String {
        let files = [(Self.maya, "cam-video", Int64(0)), (Self.maya, "cam-audio", 0), (Self.maya, "screen-video", 3_500),
                     (Self.omar, "cam-video", 1_300), (Self.omar, "cam-audio", 1_500), (Self.lena, "cam-video", 500), (Self.lena, "cam-audio", 500)]
        let tracks = files.enumerated().map { i, file in
            let key = i == 0 && s3KeyValue != nil ? s3KeyValue! : "\"\(Self.prefix)/\(Self.name(file.0, file.1, at: file.2))\""
            return #"{"type":"\#(file.1.hasSuffix("audio") ? "audio" : "video")","s3Key":\#(key),"size":\#(i == 6 ? 20480 : 1024)}"#
        }
        return #"{"version":"1.0.0","type":"recording.ready-to-download","id":"rec-rtd-1","payload":{"type":"raw-tracks","recording_id":"5d7c2b1a-0e9f-4a8b-b6c5-d4e3f2a1b0c9","room_name":"panel","start_ts":\#(Self.zero / 1000),"status":"finished","max_participants":3,"duration":6,"s3_key":"\#(Self.prefix)/\#(Self.zero)","tracks":[\#(tracks.joined(separator: ","))]},"event_ts":\#(Self.zero / 1000 + 9)}"#
            + "\n"
    }

    /// Daily's event JSON for the recording: `mediaStartValue` replaces the screen share's `mediaStartTime`.
    func eventJSON(mediaStartValue: String? = nil) -> String {
        func s(_ ms: Int64) -> String { String(format: "%.3f", Double(Self.zero + ms) / 1000) }
        func event(_ ts: String, _ type: String, _ who: String, _ data: String) -> String {
            #"{"ts":\#(ts),"type":"\#(type)","participant_id":"\#(who)","data":{\#(data)}}"#
        }
        func added(_ n: Int, _ kind: String, _ trackType: String, _ name: String) -> String {
            #""trackSessionNum":\#(n),"kind":"\#(kind)","trackType":"\#(trackType)","displayName":"\#(name)","paused":false"#
        }
        func started(_ n: Int, _ file: String, _ start: String) -> String {
            #""trackSessionNum":\#(n),"uri":"s3://bucket/\#(Self.prefix)/\#((file as NSString).deletingPathExtension)","contentType":"video/webm","mediaStartTime":\#(start)"#
        }
        let screen = Self.name(Self.maya, "screen-video", at: 3_500)
        let events = [
            event(s(0), "track-added", Self.maya, added(1, "video", "cam-video", "Maya")),
            event(s(0), "recording-media-started", Self.maya, started(1, Self.name(Self.maya, "cam-video", at: 0), s(0))),
            event("\"\(s(0))\"", "track-added", Self.maya, added(2, "audio", "cam-audio", "Maya")),
            event(s(500), "track-added", Self.lena, added(3, "audio", "cam-audio", "Lena")),
            event(s(1_300), "track-added", Self.omar, added(4, "video", "cam-video", "Omar")),
            event(s(1_300), "recording-media-started", Self.omar, started(4, Self.name(Self.omar, "cam-video", at: 1_300), s(1_300))),
            event(s(3_500), "track-added", Self.maya, added(5, "video", "screen-video", "Maya")),
            event(s(3_500), "recording-media-started", Self.maya, started(5, screen, mediaStartValue ?? "\"\(s(3_500))\"")),
            event(s(4_300), "track-paused", Self.maya, #""trackSessionNum":5"#),
            event("\"\(s(5_000))\"", "track-resumed", Self.maya, #""trackSessionNum":"5""#),
            event(s(6_000), "track-removed", Self.maya, #""trackSessionNum":5,"kind":"video""#),
        ]
        return #"{"format_id":"daily-event-json","format_version":"2026-04-30","recording":{"id":"5d7c2b1a-0e9f-4a8b-b6c5-d4e3f2a1b0c9","type":"raw-tracks"},"events":[\#(events.joined(separator: ",\n"))]}"#
    }

    /// VP8 in WebM from the `colours` one after the other, without the frames between `dropping`'s
    /// seconds (a track turned off writes nothing), its timestamps starting `from` seconds in.
    static func video(_ url: URL, _ colours: [String], dropping: (Double, Double)?, from: Double) throws {
        let inputs = colours.flatMap { ["-f", "lavfi", "-i", $0] }
        var filter = colours.count > 1 ? (0..<colours.count).map { "[\($0)]" }.joined() + "concat=n=\(colours.count):v=1:a=0" : "[0]null"
        if let (a, b) = dropping { filter += ",select='not(between(t,\(a),\(b - 0.01)))'" }
        try FFmpegTool.run(inputs + ["-filter_complex", filter, "-fps_mode", "passthrough", "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8",
                                     "-b:v", "200k", "-g", "15", "-threads", "1", "-output_ts_offset", String(from), url.path])
    }

    /// Opus in WebM: each of `tones` for `seconds` (the last for `last`), its timestamps starting `from` seconds in.
    static func audio(_ url: URL, _ tones: [Int], seconds: Double, from: Double, last: Double? = nil) throws {
        let inputs = tones.enumerated().flatMap { i, hz in
            ["-f", "lavfi", "-i", "sine=frequency=\(hz):sample_rate=48000:duration=\(i == tones.count - 1 ? last ?? seconds : seconds)"]
        }
        let filter = tones.count > 1 ? (0..<tones.count).map { "[\($0)]" }.joined() + "concat=n=\(tones.count):v=0:a=1" : "[0]anull"
        try FFmpegTool.run(inputs + ["-filter_complex", filter, "-c:a", "libopus", "-b:a", "48k", "-ac", "1", "-output_ts_offset", String(from), url.path])
    }
}
