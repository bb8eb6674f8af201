import Foundation
import StageMixTestSupport

/// A ZEGOCLOUD single-stream recording as its bucket holds it, made by the ffmpeg CLI in ZEGOCLOUD's
/// names and shapes (its "Start recording" OutputFileRule, `TaskId_RoomId_UserId_StreamId_Type_UTC`,
/// and "Recording status callback"), with what each user did known exactly. The session starts at
/// `zero` (2026-11-26T18:00:00Z):
///
/// - Maya (`u1001`) from 0 to 6 s, recorded with `StreamType` 4: a video-only MP4 (red, green from
///   3 s) and a separate aac (440 Hz, 660 Hz from 3 s); listed in the status callback's `file_info`,
///   `begin_timestamp` a number for the video and a string for the audio;
/// - Omar (`u1002`) joins late, 2 to 5 s, one audio-and-video MP4 (blue, 880 Hz), listed in a saved
///   DescribeRecordStatus response (`Data.RecordFiles`, `BeginTimestamp` as ISO text);
/// - Lin (`u1003`), 1 to 3 s, whose file failed to upload (`status` 5).
struct ZegoRecordingFixture {
    static let zero: Int64 = 1_795_716_000_000
    static let task = "YZ4joOE4IwmFAAAT", room = "panel"

    let directory: URL
    var media: URL { directory.appendingPathComponent("record") }

    static func utc(_ ms: Int64) -> String { AgoraRecordingFixture.utc(ms) }

    /// A file's name as ZEGOCLOUD writes it.
    static func name(_ user: String, _ type: String, at ms: Int64, _ ext: String) -> String {
        "\(task)_\(room)_\(user)_\(user)_main_\(type)_\(utc(ms)).\(ext)"
    }

    static let mayaVideo = name("u1001", "V", at: zero, "mp4"), mayaAudio = name("u1001", "A", at: zero, "aac")
    static let omar = name("u1002", "VA", at: zero + 2_000, "mp4"), lin = name("u1003", "VA", at: zero + 1_000, "mp4")

    init(in root: URL) throws {
        directory = root.appendingPathComponent("bucket")
        for folder in [media, directory.appendingPathComponent("callbacks")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-bf", "0", "-pix_fmt", "yuv420p"]
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0xC83020:s=320x180:r=15:d=3", "-f", "lavfi", "-i", "color=c=0x20A040:s=320x180:r=15:d=3",
                            "-filter_complex", "[0][1]concat=n=2:v=1:a=0"] + x264 + [media.appendingPathComponent(Self.mayaVideo).path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=3",
                            "-filter_complex", "[0][1]concat=n=2:v=0:a=1", "-c:a", "aac", "-ac", "1", "-f", "adts", media.appendingPathComponent(Self.mayaAudio).path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0x2040C0:s=320x180:r=15:d=3", "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=3"]
                           + x264 + ["-c:a", "aac", "-ac", "1", "-shortest", media.appendingPathComponent(Self.omar).path])
        try callback().write(to: directory.appendingPathComponent("callbacks/record_status.json"), atomically: true, encoding: .utf8)
        try query().write(to: directory.appendingPathComponent("query.jsonl"), atomically: true, encoding: .utf8)
    }

    /// The status callback (event 1) listing Maya's two files and Lin's failed one; `beginValue`
    /// replaces Maya's video's `begin_timestamp` as written.
    func callback(beginValue: String? = nil) -> String {
        func entry(_ user: String, _ name: String, _ file: String, begin: String, duration: Int, type: Int, status: Int = 3) -> String {
            #"{"user_id":"\#(user)","user_name":"\#(name)","stream_id":"\#(user)_main","file_id":"\#(file)","video_id":"","file_url":"https://bucket.oss-cn-shanghai.aliyuncs.com/record/\#(file)?Expires=1","output_file_format":"\#(file.hasSuffix("aac") ? "aac" : "mp4")","file_size":1024,"duration":\#(duration),"resolution_width":320,"resolution_height":180,"media_track_type":\#(type),"begin_timestamp":\#(begin),"status":\#(status)}"#
        }
        let files = [entry("u1001", "Maya", Self.mayaVideo, begin: beginValue ?? "\(Self.zero)", duration: 6_000, type: 2),
                     entry("u1001", "Maya", Self.mayaAudio, begin: "\"\(Self.zero)\"", duration: 6_000, type: 1),
                     entry("u1003", "Lin", Self.lin, begin: "\(Self.zero + 1_000)", duration: 2_000, type: 3, status: 5)]
        return #"{"app_id":1234567890,"task_id":"\#(Self.task)","room_id":"\#(Self.room)","event_type":1,"message":"","nonce":"100480","timestamp":"1795716010","signature":"x","sequence":1,"detail":{"upload_status":2,"file_info":[\#(files.joined(separator: ","))]}}"#
    }

    /// A DescribeRecordStatus response, one line, listing Omar's file.
    func query() -> String {
        let begin = PlatformTime.iso(Self.zero + 2_000)
        return #"{"Code":0,"Message":"succeed","RequestId":"r1","Data":{"RoomId":"\#(Self.room)","RecordMode":1,"StreamType":4,"RecordBeginTimestamp":\#(Self.zero),"RecordEndTimestamp":\#(Self.zero + 6_000),"Status":3,"RecordFiles":[{"UserId":"u1002","UserName":"Omar","StreamId":"u1002_main","FileId":"\#(Self.omar)","FileUrl":"https://bucket.oss-cn-shanghai.aliyuncs.com/record/\#(Self.omar)","OutputFileFormat":"mp4","FileSize":2048,"Duration":3000,"ResolutionWidth":320,"ResolutionHeight":180,"MediaTrackType":3,"BeginTimestamp":"\#(begin)","Status":3}]}}"# + "\n"
    }
}

/// Instants as ISO 8601 text, for documents that write them so.
enum PlatformTime {
    static func iso(_ ms: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
