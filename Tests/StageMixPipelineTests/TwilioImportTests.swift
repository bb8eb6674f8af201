import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixMedia

/// `stagemix import twilio` on a room made by the ffmpeg CLI as Twilio writes rooms: a late joiner
/// whose files start far from zero, H.264 with B-frames in MKV, PCMU audio, a mute in the status
/// callbacks (out of SequenceNumber order), a screen share whose recording failed and has no file.
@Suite("Twilio import", .serialized)
struct TwilioImportTests {
    typealias CLI = CommandLineTests

    static let roomSid = TwilioRoomFixture.roomSid
    static let alice = TwilioRoomFixture.alice, bob = TwilioRoomFixture.bob

    static func room(in root: URL) throws -> URL { try TwilioRoomFixture.room(in: root) }

    @Test func aRoomImportsAsACaptureThatComposesWithEveryoneInTheirPlace() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = try Self.room(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "twilio", room.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("RT0000000000000000000000000000b003") && imported.stderr.contains("failed"), "\(imported.stderr)")

        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == "panel-17")
        #expect(read.participants.map(\.id).sorted() == ["alice", "bob"])
        #expect(read.track("RT0000000000000000000000000000a001")?.startOffsetMs == 0)
        // Bob's files start 2.5 s into the room: that is where his tracks are, not at 0.
        #expect(read.track("RT0000000000000000000000000000b002")?.startOffsetMs == 2_500)
        #expect(read.track("RT0000000000000000000000000000b001")?.layers.first.map { [$0.width, $0.height] } == [320, 240])
        #expect(read.track("RT0000000000000000000000000000b003")?.source == .screenShare)
        let manifest = try JSONDecoder().decode(CaptureManifest.self, from: Data(contentsOf: capture.appendingPathComponent("session.json")))
        let mutes = manifest.events.filter { $0.type == "track.muted" || $0.type == "track.unmuted" }.map { "\($0.type)@\($0.atMs)" }
        #expect(mutes == ["track.muted@1000", "track.unmuted@2000"], "ordered by Timestamp, not SequenceNumber")
        // Media hard-linked where it lies, not copied.
        var a = stat(), b = stat()
        stat(room.appendingPathComponent("RT0000000000000000000000000000a001.mkv").path, &a)
        stat(capture.appendingPathComponent("media/RT0000000000000000000000000000a001.mkv").path, &b)
        #expect(a.st_ino == b.st_ino)

        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast", "--resolution", "320x180", "--fps", "10"])
        #expect(composed.status == 0, "\(composed.stderr)")
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        // Bob's PCMU tone is heard from 2.5 s and not before; Alice's is silent while her track is muted.
        #expect(tonePower(660, in: output.audio(from: 3.0, to: 5.0)) > 100 * tonePower(660, in: output.audio(from: 0.2, to: 2.3)))
        #expect(tonePower(440, in: output.audio(from: 3.0, to: 5.0)) > 100 * tonePower(440, in: output.audio(from: 1.2, to: 1.8)))
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("RT0000000000000000000000000000b003"), "the failed recording is reported as lost media")
        #expect(report.contains("import (twilio): recording RT0000000000000000000000000000b003 (screen-bob) is failed"), "and its status as a warning")
    }

    @Test func aBrokenExportIsRefusedNamingTheFileAndPath() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = try Self.room(in: root)
        let recordings = room.appendingPathComponent("recordings.json")
        try (try String(contentsOf: recordings, encoding: .utf8)).replacingOccurrences(of: #""offset": 10170342040, "track_name": "bob-mic""#, with: #""offset": "soon", "track_name": "bob-mic""#)
            .write(to: recordings, atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let result = try CLI.run(["import", "twilio", room.path, "--out", capture.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("recordings.json") && result.stderr.contains("$.recordings[3].offset"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }

    /// The imported room under a Twilio composition request: each camera in its cell by track name, only
    /// the audio `AudioSources` names, the room's regions checked against Twilio's rules and limits.
    @Test func anImportedRoomComposesWithTwiliosLayoutRules() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        #expect(try CLI.run(["import", "twilio", try Self.room(in: root).path, "--out", capture.path]).status == 0)
        let layout = root.appendingPathComponent("twilio.json")
        try #"""
            {"VideoLayout": {"grid": {"video_sources": ["*-cam"], "video_sources_excluded": ["\#(Self.bob)"]},
                             "bob": {"x_pos": 160, "y_pos": 90, "z_pos": 1, "width": 160, "height": 90, "video_sources": ["MTb1"]}},
             "Resolution": "320x180", "AudioSources": ["bob*"]}
            """#.write(to: layout, atomically: true, encoding: .utf8)

        let plan = try CLI.run(["plan", capture.path, "--layout", "twilio:" + layout.path, "--json"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let intervals = try #require((doc["plan"] as? [String: Any])?["intervals"] as? [[String: Any]])
        let late = try #require(intervals.first { ($0["startMs"] as? Int ?? 0) <= 4_000 && 4_000 < ($0["endMs"] as? Int ?? 0) })
        let tiles = (late["tiles"] as? [[String: Any]] ?? []).map { "\($0["region"]!) \($0["trackId"]!)" }
        #expect(tiles == ["grid RT0000000000000000000000000000a001", "bob RT0000000000000000000000000000b001"])
        let audio = (late["audio"] as? [[String: Any]] ?? []).compactMap { $0["trackId"] as? String }
        #expect(audio == ["RT0000000000000000000000000000b002"])

        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--layout", "twilio:" + layout.path, "--preset", "ultrafast", "--fps", "10"])
        #expect(composed.status == 0, "\(composed.stderr)")
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        // Alice's microphone is not among the AudioSources: her 440 Hz tone is not in the mix; Bob's is.
        #expect(tonePower(660, in: output.audio(from: 3.0, to: 5.0)) > 100 * tonePower(440, in: output.audio(from: 3.0, to: 5.0)))

        let tooLarge = try CLI.run(["plan", capture.path, "--layout", "twilio:" + layout.path, "--resolution", "1920x1080"])
        #expect(tooLarge.status == 64 && tooLarge.stderr.contains("--resolution") && tooLarge.stderr.contains("1920x1080"), "\(tooLarge.stderr)")
        try #"{"main": {"max_columns": 0, "video_sources": ["*"]}}"#.write(to: layout, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["plan", capture.path, "--layout", layout.path])
        #expect(refused.status == 65 && refused.stderr.contains("$.main.max_columns"), "\(refused.stderr)")
    }
}

extension TwilioImportTests {
    /// Twilio switches simulcast layers mid-file (the picture size changes inside one recording), and
    /// a track unpublished and published again is a second recording: neither freezes the tile.
    @Test func aResolutionChangeInsideARecordingAndARepublishedTrackKeepThePictureMoving() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = root.appendingPathComponent("room")
        try FileManager.default.createDirectory(at: room, withIntermediateDirectories: true)
        func path(_ name: String) -> String { room.appendingPathComponent(name).path }
        // The first recording: 1 s red at 640x360, then 1 s blue at 320x180, in one Matroska file.
        for (name, color, size) in [("red.webm", "red", "640x360"), ("blue.webm", "blue", "320x180")] {
            try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=\(color):size=\(size):rate=30", "-t", "1", "-c:v", "libvpx",
                                "-deadline", "realtime", "-b:v", "200k", path(name)])
        }
        try "file red.webm\nfile blue.webm\n".write(toFile: path("list.txt"), atomically: true, encoding: .utf8)
        try FFmpegTool.run(["-f", "concat", "-safe", "0", "-i", path("list.txt"), "-c", "copy", "-f", "matroska", path("RT00000000000000000000000000000c01.mkv")])
        // Republished at 3 s: green, its file's timestamps starting there as Twilio writes them.
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=lime:size=640x360:rate=30", "-t", "1", "-c:v", "libvpx", "-deadline", "realtime",
                            "-b:v", "200k", "-output_ts_offset", "3", path("RT00000000000000000000000000000c02.mkv")])
        try #"{"sid": "RM00000000000000000000000000000002", "date_created": "2026-11-20T18:00:00Z", "end_time": "2026-11-20T18:00:05Z"}"#
            .write(toFile: path("room.json"), atomically: true, encoding: .utf8)
        try #"{"participants": [{"sid": "PA0000000000000000000000000000000c", "identity": "carol", "start_time": "2026-11-20T18:00:00Z", "end_time": "2026-11-20T18:00:05Z"}]}"#
            .write(toFile: path("participants.json"), atomically: true, encoding: .utf8)
        try ("{\"recordings\": [" + ["c01": 2, "c02": 1].sorted(by: { $0.key < $1.key }).map { suffix, seconds in
            #"{"sid": "RT00000000000000000000000000000\#(suffix)", "source_sid": "MT\#(suffix)", "type": "video", "codec": "VP8", "container_format": "mkv", "duration": \#(seconds), "offset": 5000, "track_name": "carol-cam", "status": "completed", "grouping_sids": {"participant_sid": "PA0000000000000000000000000000000c"}}"#
        }.joined(separator: ",") + "]}").write(toFile: path("recordings.json"), atomically: true, encoding: .utf8)

        let capture = root.appendingPathComponent("capture"), out = root.appendingPathComponent("out")
        let imported = try CLI.run(["import", "twilio", room.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.track("RT00000000000000000000000000000c02")?.startOffsetMs == 3_000)
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast", "--resolution", "320x180",
                                    "--fps", "10", "--labels", "off"])
        #expect(composed.status == 0, "\(composed.stderr)")
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        func centre(_ t: Double) -> RGBColor? { output.frame(at: t)?.pixelRGB(x: 160, y: 90) }
        let red = try #require(centre(0.5)), blue = try #require(centre(1.6)), green = try #require(centre(3.6))
        #expect(red.r > 180 && red.b < 80, "\(red)")
        #expect(blue.b > 180 && blue.r < 80, "after the size changed inside the file: \(blue)")
        #expect(green.g > 180 && green.r < 80, "the republished recording: \(green)")
    }
}

extension TwilioImportTests {
    /// An imported room uploaded to a bucket keeps what its `import.json` says: a Twilio layout names
    /// its tracks by `track_name` there as in the folder.
    @Test func anImportedRoomInABucketKeepsItsTrackNames() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        #expect(try CLI.run(["import", "twilio", try Self.room(in: root).path, "--out", capture.path]).status == 0)
        let moto = try MotoServer()
        defer { moto.stop() }
        try moto.upload(capture, bucket: "rooms", prefix: Self.roomSid)
        let layout = root.appendingPathComponent("twilio.json")
        try #"{"VideoLayout": {"only": {"video_sources": ["bob-cam"]}}, "Resolution": "320x180", "AudioSources": ["alice-mic"]}"#
            .write(to: layout, atomically: true, encoding: .utf8)
        let plan = try CLI.run(["plan", "s3://rooms/\(Self.roomSid)", "--layout", "twilio:" + layout.path, "--json"], environment: moto.environment())
        #expect(plan.status == 0, "\(plan.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let intervals = (doc["plan"] as? [String: Any])?["intervals"] as? [[String: Any]] ?? []
        let tracks = Set(intervals.flatMap { ($0["tiles"] as? [[String: Any]] ?? []).compactMap { $0["trackId"] as? String } })
        let heard = Set(intervals.flatMap { ($0["audio"] as? [[String: Any]] ?? []).compactMap { $0["trackId"] as? String } })
        #expect(tracks == ["RT0000000000000000000000000000b001"] && heard == ["RT0000000000000000000000000000a002"], "\(tracks) \(heard)")
    }
}
