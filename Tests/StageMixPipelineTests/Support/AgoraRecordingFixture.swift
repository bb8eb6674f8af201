import Foundation
import Testing
import StageMixMedia
import StageMixTestSupport

/// An Agora Cloud Recording in individual mode as its bucket holds it, made by the ffmpeg CLI in
/// Agora's names and shapes (docs.agora.io, "Legacy recorded files"), with what each uid did known
/// exactly. The session starts at `zero` (2026-11-26T18:00:00Z):
///
/// - uid 1001 from 0 to 6 s, one encode cut into three 2-second TS slices per kind (one GOP, so the
///   second and third slices start mid-GOP, as Agora's forced cuts do): red with 440 Hz until 3 s,
///   then green with 660 Hz;
/// - uid 1002 joins late, 1 to 3 s, leaves, and is back after a failover from 4 to 6 s (`bak0_`
///   files; the audio listed in a backup upload's `_<tick>_<index>` playlist), its picture blue over
///   yellow, turned 90° by `EXT-X-AGORA-ROTATE` after the failover; 880 Hz;
/// - the `uploaded` callback's `fileList` (`callbacks/uploaded.json`, `sliceStartTime` a number for
///   some files and a string for others) and `recorder_slice_start` events (`events.jsonl`).
struct AgoraRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let sid = "38f8e3cfdc474cd56fc1ceba380d7e1a", cname = "panel"
    static let red = RGBColor(r: 0xC8, g: 0x30, b: 0x20), green = RGBColor(r: 0x20, g: 0xA0, b: 0x40)
    static let blue = RGBColor(r: 0x20, g: 0x40, b: 0xC0), yellow = RGBColor(r: 0xE0, g: 0xD0, b: 0x20)

    let directory: URL
    var media: URL { directory.appendingPathComponent("recordings/2026/11/20") }

    static func name(_ uid: String, _ tail: String, bak: Bool = false) -> String {
        (bak ? "bak0_" : "") + "\(sid)_\(cname)__uid_s_\(uid)__uid_e_\(tail)"
    }

    static func utc(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmssSSS"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    init(in root: URL) throws {
        directory = root.appendingPathComponent("bucket")
        let scratch = root.appendingPathComponent("scratch")
        for folder in [media, scratch, directory.appendingPathComponent("callbacks")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "600", "-keyint_min", "600", "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p"]
        let aac = ["-c:a", "aac", "-b:a", "64k", "-ac", "1"]
        let cut = ["-f", "segment", "-segment_format", "mpegts", "-segment_times", "2,4", "-break_non_keyframes", "1", "-reset_timestamps", "0"]
        // uid 1001: one stream per kind, cut in three.
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0xC83020:s=320x180:r=15:d=3", "-f", "lavfi", "-i", "color=c=0x20A040:s=320x180:r=15:d=3",
                            "-filter_complex", "[0][1]concat=n=2:v=1:a=0"] + x264 + cut + [scratch.appendingPathComponent("v%d.ts").path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=3",
                            "-filter_complex", "[0][1]concat=n=2:v=0:a=1"] + aac + cut + [scratch.appendingPathComponent("a%d.ts").path])
        for (kind, prefix, type) in [(MediaType.video, "v", "video"), (.audio, "a", "audio")] {
            let files = (0..<3).map { scratch.appendingPathComponent("\(prefix)\($0).ts") }
            let starts = try files.map { try Self.firstSeconds($0, kind) }
            var names: [String] = []
            for (file, start) in zip(files, starts) {
                let name = Self.name("1001", "\(type)_\(Self.utc(Self.zero + Int64(((start - starts[0]) * 1000).rounded()))).ts")
                try FileManager.default.moveItem(at: file, to: media.appendingPathComponent(name))
                names.append(name)
            }
            try Self.playlist(names, type: type, start: Self.zero).write(to: media.appendingPathComponent(Self.name("1001", "\(type).m3u8")), atomically: true, encoding: .utf8)
        }
        // uid 1002: 1 to 3 s, then after the failover 4 to 6 s, turned.
        for (start, bak) in [(Int64(1_000), false), (4_000, true)] {
            let at = Self.utc(Self.zero + start)
            try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0x2040C0:s=320x90:r=15:d=2", "-f", "lavfi", "-i", "color=c=0xE0D020:s=320x90:r=15:d=2",
                                "-filter_complex", "[0][1]vstack"] + x264 + ["-f", "mpegts", media.appendingPathComponent(Self.name("1002", "video_\(at).ts", bak: bak)).path])
            try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=2"] + aac
                               + ["-f", "mpegts", media.appendingPathComponent(Self.name("1002", "audio_\(at).ts", bak: bak)).path])
        }
        let first = Self.utc(Self.zero + 1_000), second = Self.utc(Self.zero + 4_000)
        try Self.playlist([Self.name("1002", "video_\(first).ts")], type: "video", start: Self.zero + 1_000)
            .write(to: media.appendingPathComponent(Self.name("1002", "video.m3u8")), atomically: true, encoding: .utf8)
        try Self.playlist([Self.name("1002", "video_\(second).ts", bak: true)], type: "video", start: Self.zero + 4_000, rotate: 90)
            .write(to: media.appendingPathComponent(Self.name("1002", "video.m3u8", bak: true)), atomically: true, encoding: .utf8)
        try Self.playlist([Self.name("1002", "audio_\(first).ts")], type: "audio", start: Self.zero + 1_000)
            .write(to: media.appendingPathComponent(Self.name("1002", "audio.m3u8")), atomically: true, encoding: .utf8)
        try Self.playlist([Self.name("1002", "audio_\(second).ts", bak: true)], type: "audio", start: Self.zero + 4_000)
            .write(to: media.appendingPathComponent(Self.name("1002", "audio_\(Self.zero + 4_000)_0.m3u8")), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: scratch)
        try uploaded().write(to: directory.appendingPathComponent("callbacks/uploaded.json"), atomically: true, encoding: .utf8)
        try [#"{"noticeId":"n1","productId":3,"eventType":42,"notifyMs":\#(Self.zero + 50),"payload":{"cname":"panel","uid":"527841","sid":"\#(Self.sid)","details":{"msgName":"recorder_slice_start","startUtcMs":\#(Self.zero),"discontinueUtcMs":0}}}"#,
             #"{"noticeId":"n2","productId":3,"eventType":42,"notifyMs":\#(Self.zero + 4_050),"payload":{"cname":"panel","uid":"527841","sid":"\#(Self.sid)","details":{"msgName":"recorder_slice_start","startUtcMs":"\#(Self.zero + 4_000)","discontinueUtcMs":\#(Self.zero + 3_000)}}}"#]
            .joined(separator: "\n").write(to: directory.appendingPathComponent("events.jsonl"), atomically: true, encoding: .utf8)
    }

    /// The `uploaded` callback (event 31) with its `fileList`; `playable` false marks uid 1002's audio playlist unplayable.
    func uploaded(playable: Bool = true, isPlayableValue: String? = nil) -> String {
        func entry(_ uid: String, _ type: String, _ start: String, playable: String = "true") -> String {
            #"{"fileName":"recordings/2026/11/20/\#(Self.name(uid, "\(type).m3u8"))","trackType":"\#(type)","uid":"\#(uid)","mixedAllUser":false,"isPlayable":\#(playable),"sliceStartTime":\#(start)}"#
        }
        let files = [entry("1001", "video", "\(Self.zero)"), entry("1001", "audio", "\"\(Self.zero)\"", playable: isPlayableValue ?? "true"),
                     entry("1002", "video", "\"\(Self.zero + 1_000)\""), entry("1002", "audio", "\(Self.zero + 1_000)", playable: playable ? "true" : "false")]
        return #"{"noticeId":"n3","productId":3,"eventType":31,"notifyMs":\#(Self.zero + 9_000),"payload":{"cname":"panel","uid":"527841","sid":"\#(Self.sid)","sequence":3,"sendts":\#(Self.zero + 9_000),"serviceType":0,"details":{"msgName":"uploaded","status":0,"fileList":[\#(files.joined(separator: ","))]}}}"#
    }

    /// A playlist as Agora writes it: no program date-time, its own tags, `#EXTINF` without the comma.
    static func playlist(_ slices: [String], type: String, start: Int64, rotate: Int? = nil) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-TARGETDURATION:3",
                     "#EXT-X-AGORA-TRACK-EVENT:EVENT=START,TRACK_TYPE=\(type),TIME=\(utc(start))"]
        if let rotate { lines.append("#EXT-X-AGORA-ROTATE:WIDTH=320,HEIGHT=180,ROTATE=\(rotate),TIME=\(utc(start))") }
        for slice in slices { lines += ["#EXTINF:2.000", slice] }
        return (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
    }

    static func firstSeconds(_ file: URL, _ kind: MediaType) throws -> Double {
        let demuxer = try Demuxer(url: file)
        let stream = try #require(demuxer.firstStream(ofType: kind))
        return Double(stream.startTime ?? 0) * stream.timeBase.doubleValue
    }
}
