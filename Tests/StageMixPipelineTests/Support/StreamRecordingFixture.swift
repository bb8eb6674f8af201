import Foundation
import StageMixTestSupport

/// A Stream (GetStream) call's individual recordings as its bucket holds them, made by the ffmpeg CLI
/// in Stream's shapes: an MKV per participant and track type (`…_individual_<user>_<type>_<startMs>.mkv`,
/// VP8 video and Opus audio, as WebRTC sends them), one `call.recording_ready` webhook per file (a
/// `.jsonl` log), and a `call.session_participant_joined` event giving Alice's name. The call starts
/// at `zero` (2026-11-26T18:00:00Z):
///
/// - alice, from 0 to 6 s: `video_only` red then green from 3 s, `audio_only` 440 Hz then 660 Hz from
///   3 s; `start_time` ISO text in one webhook, Unix ms digits in the other;
/// - bob joins late, 2 to 5 s: `video_only` blue and landscape (320x180) until 3.5 s, then upright
///   yellow (180x320), turned within the one file as Stream's recordings keep it; `audio_only`
///   880 Hz, a file no webhook lists (placed by its name);
/// - carol: a webhook for a file the folder lacks, 1 to 2.5 s (`start_time` a Unix ms number).
struct StreamRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let callId = "livestream:panel", session = "5d0f3b62-6e0a-4d6b-9a51-7c1b8b3f0e21"

    let directory: URL
    var media: URL { directory.appendingPathComponent("recordings/livestream_panel") }

    static func name(_ user: String, _ type: String, at ms: Int64) -> String { "rec_livestream_panel_individual_\(user)_\(type)_\(ms).mkv" }

    static let aliceVideo = name("alice", "video_only", at: zero), aliceAudio = name("alice", "audio_only", at: zero)
    static let bobVideo = name("bob", "video_only", at: zero + 2_000), bobAudio = name("bob", "audio_only", at: zero + 2_000)
    static let carolVideo = name("carol", "video_only", at: zero + 1_000)

    init(in root: URL) throws {
        directory = root.appendingPathComponent("bucket")
        let scratch = root.appendingPathComponent("scratch")
        for folder in [media, scratch] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let vp8 = ["-c:v", "libvpx", "-b:v", "400k", "-g", "15", "-deadline", "realtime", "-cpu-used", "8"]
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0xC83020:s=320x180:r=15:d=3", "-f", "lavfi", "-i", "color=c=0x20A040:s=320x180:r=15:d=3",
                            "-filter_complex", "[0][1]concat=n=2:v=1:a=0"] + vp8 + [media.appendingPathComponent(Self.aliceVideo).path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=3",
                            "-filter_complex", "[0][1]concat=n=2:v=0:a=1", "-c:a", "libopus", media.appendingPathComponent(Self.aliceAudio).path])
        // Bob's picture turns upright mid-file: two encodes of the one stream, joined packet for packet.
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0x2040C0:s=320x180:r=15:d=1.5"] + vp8 + [scratch.appendingPathComponent("a.ivf").path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0xE0D020:s=180x320:r=15:d=1.5"] + vp8 + [scratch.appendingPathComponent("b.ivf").path])
        try "file 'a.ivf'\nfile 'b.ivf'\n".write(to: scratch.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        try FFmpegTool.run(["-f", "concat", "-safe", "0", "-i", scratch.appendingPathComponent("list.txt").path, "-c", "copy",
                            media.appendingPathComponent(Self.bobVideo).path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=3", "-c:a", "libopus", media.appendingPathComponent(Self.bobAudio).path])
        try FileManager.default.removeItem(at: scratch)
        try webhooks().joined(separator: "\n").write(to: directory.appendingPathComponent("webhooks.jsonl"), atomically: true, encoding: .utf8)
    }

    /// The webhook log: Alice's join (with her name), one `call.recording_ready` per file but Bob's
    /// audio; `aliceStart` replaces the `start_time` of Alice's video as written.
    func webhooks(aliceStart: String? = nil) -> [String] {
        func ready(_ file: String, start: String, end: String) -> String {
            #"{"type":"call.recording_ready","created_at":"\#(PlatformTime.iso(Self.zero + 9_000))","call_cid":"\#(Self.callId)","egress_id":"eg1","recording_type":"individual","call_recording":{"filename":"\#(file)","url":"https://video-recordings.stream-io-cdn.com/1234/livestream_panel/\#(file)?Expires=1&Signature=x","start_time":\#(start),"end_time":\#(end),"session_id":"\#(Self.session)","recording_type":"individual"}}"#
        }
        func iso(_ ms: Int64) -> String { "\"\(PlatformTime.iso(ms))\"" }
        return [
            #"{"type":"call.session_participant_joined","created_at":\#(iso(Self.zero)),"call_cid":"\#(Self.callId)","session_id":"\#(Self.session)","participant":{"user":{"id":"alice","name":"Alice","role":"host"},"user_session_id":"us1","role":"host","joined_at":\#(iso(Self.zero))}}"#,
            ready(Self.aliceVideo, start: aliceStart ?? iso(Self.zero), end: iso(Self.zero + 6_000)),
            ready(Self.aliceAudio, start: "\"\(Self.zero)\"", end: "\"\(Self.zero + 6_000)\""),
            ready(Self.bobVideo, start: iso(Self.zero + 2_000), end: iso(Self.zero + 5_000)),
            ready(Self.carolVideo, start: "\(Self.zero + 1_000)", end: "\(Self.zero + 2_500)"),
        ]
    }
}
