import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture

/// `stagemix import livekit` on an export made by the ffmpeg CLI as Track Egress writes one: WebM VP8,
/// Ogg Opus, MP4 H.264; a Track Egress manifest for one participant, `EgressInfo` with 64-bit integers
/// as strings for the other (whose publisher only the webhook log names), nanosecond start times.
@Suite("LiveKit import", .serialized)
struct LiveKitImportTests {
    typealias CLI = CommandLineTests

    /// 2026-11-20T18:00:00Z in nanoseconds, plus a fraction of a second that a 1-second webhook cannot carry.
    static let zero: Int64 = 1_795_716_000_000_000_000 + 123_456_789

    static func export(in root: URL) throws -> URL {
        let dir = root.appendingPathComponent("egress")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "6", "-c:v", "libvpx", "-deadline", "realtime",
                            "-cpu-used", "8", "-b:v", "300k", file("TR_VCalice_cam.webm")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "6", "-c:a", "libopus", file("TR_AMalice_mic.ogg")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc=size=480x270:rate=25", "-t", "3", "-c:v", "libx264", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", file("TR_VCbob_cam.mp4")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-t", "3", "-c:a", "libopus", file("TR_AMbob_mic.ogg")])
        let bob = zero + 2_500_000_000
        // Alice's camera: the manifest as LiveKit writes it (pkg/config/manifest.go), the times once, at its top level.
        try manifest(startedAt: zero, endedAt: zero + 6_000_000_000).write(to: dir.appendingPathComponent("TR_VCalice_cam.json"), atomically: true, encoding: .utf8)
        try #"""
            {"egress_id": "EG_alice_mic", "room_name": "standup", "publisher_identity": "alice", "track_id": "TR_AMalice_mic",
             "track_kind": "audio", "track_source": "microphone",
             "files": [{"filename": "TR_AMalice_mic.ogg", "started_at": "\#(zero)", "ended_at": "\#(zero + 6_000_000_000)"}]}
            """#.write(to: dir.appendingPathComponent("TR_AMalice_mic.json"), atomically: true, encoding: .utf8)
        for (track, name) in [("TR_VCbob_cam", "TR_VCbob_cam.mp4"), ("TR_AMbob_mic", "TR_AMbob_mic.ogg")] {
            try #"""
                {"egressId": "EG_\#(track)", "egress_id": "EG_\#(track)", "room_name": "standup", "status": "EGRESS_COMPLETE",
                 "track": {"room_name": "standup", "track_id": "\#(track)"},
                 "file_results": [{"filename": "\#(name)", "started_at": "\#(bob)", "ended_at": "\#(bob + 3_000_000_000)", "duration": "3000000000"}]}
                """#.write(to: dir.appendingPathComponent("\(track).egress.json"), atomically: true, encoding: .utf8)
        }
        let second = zero / 1_000_000_000
        try [#"{"event": "participant_joined", "participant": {"sid": "PA_a", "identity": "alice", "name": "Alice Liddell"}, "createdAt": "\#(second)"}"#,
             #"{"event": "participant_joined", "participant": {"sid": "PA_b", "identity": "bob", "name": "Bob"}, "createdAt": "\#(second + 2)"}"#,
             #"{"event": "track_published", "participant": {"sid": "PA_b", "identity": "bob"}, "track": {"sid": "TR_VCbob_cam", "type": "VIDEO", "source": "CAMERA", "width": 480, "height": 270, "layers": [{"quality": "HIGH", "width": 480, "height": 270}]}, "createdAt": "\#(second + 2)"}"#,
             #"{"event": "track_published", "participant": {"sid": "PA_b", "identity": "bob"}, "track": {"sid": "TR_AMbob_mic", "type": "AUDIO", "source": "MICROPHONE"}, "createdAt": "\#(second + 2)"}"#,
             #"{"event": "participant_left", "participant": {"sid": "PA_b", "identity": "bob"}, "createdAt": "\#(second + 6)"}"#,
             #"{"event": "participant_left", "participant": {"sid": "PA_a", "identity": "alice"}, "createdAt": "\#(second + 7)"}"#]
            .joined(separator: "\n").write(to: dir.appendingPathComponent("webhooks.jsonl"), atomically: true, encoding: .utf8)
        return dir
    }

    /// A Track Egress manifest as LiveKit writes it: `started_at`/`ended_at` (nanoseconds, `EgressInfo.started_at`)
    /// once at the top level, omitted when zero; `files[]` with `filename` and `location` only.
    static func manifest(startedAt: Int64?, endedAt: Int64?) -> String {
        let times = [startedAt.map { "\"started_at\": \($0)" }, endedAt.map { "\"ended_at\": \($0)" }].compactMap { $0 }
        return #"""
            {"egress_id": "EG_alice", "room_id": "RM_x", "room_name": "standup", \#(times.map { $0 + ", " }.joined())"publisher_identity": "alice",
             "track_id": "TR_VCalice_cam", "track_kind": "video", "track_source": "camera",
             "files": [{"filename": "TR_VCalice_cam.webm", "location": "/out/TR_VCalice_cam.webm"}]}
            """#
    }

    @Test func anEgressExportImportsWithEveryoneInSync() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.export(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "livekit", dir.path, "--out", capture.path, "--copy-media"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == "standup")
        #expect(read.participants.map(\.id) == ["alice", "bob"])
        // Session time 0 is the earliest moment known, alice's join webhook (a whole second); each file is
        // placed by its own nanosecond start after it, not by a webhook's whole second.
        #expect(read.track("TR_VCalice_cam")?.startOffsetMs == 123)
        #expect(read.track("TR_AMbob_mic")?.startOffsetMs == 2_623)
        #expect(read.track("TR_VCbob_cam")?.layers.first.map { [$0.width, $0.height] } == [480, 270])
        #expect(read.track("TR_VCbob_cam")?.participantId == "bob", "the publisher from the webhooks")

        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast", "--resolution", "320x180", "--fps", "10"])
        #expect(composed.status == 0, "\(composed.stderr)")
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        #expect(tonePower(660, in: output.audio(from: 2.9, to: 5.3)) > 100 * tonePower(660, in: output.audio(from: 0.2, to: 2.3)))
        #expect(tonePower(440, in: output.audio(from: 0.2, to: 5.5)) > 0)
    }

    @Test func aFileWhosePublisherNobodyNamesIsLeftOutWithAWarning() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.export(in: root)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("webhooks.jsonl"))
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "livekit", dir.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("TR_VCbob_cam") && imported.stderr.contains("no publisher"), "\(imported.stderr)")
        #expect(try CaptureFolder(capture).capture().participants.map(\.id) == ["alice"])
    }

    /// LiveKit's manifest places its file by the manifest's own `started_at` (the egress's start) and ends it at
    /// its `ended_at`; a manifest with no start at all is refused naming where the start belongs.
    @Test func aTrackEgressManifestAsLiveKitWritesItImports() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.export(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "livekit", dir.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let manifest = try JSONDecoder().decode(CaptureManifest.self, from: Data(contentsOf: capture.appendingPathComponent("session.json")))
        let camera = manifest.events.filter { $0.trackId == "TR_VCalice_cam" }.map { "\($0.type)@\($0.atMs)" }
        #expect(camera == ["track.published@123", "track.unpublished@6123"], "\(camera)")
        #expect(manifest.tracks.first { $0.id == "TR_VCalice_cam" }?.startOffsetMs == 123)

        try Self.manifest(startedAt: nil, endedAt: Self.zero + 6_000_000_000)
            .write(to: dir.appendingPathComponent("TR_VCalice_cam.json"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", "livekit", dir.path, "--out", root.appendingPathComponent("refused").path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("TR_VCalice_cam.json") && refused.stderr.contains("$.started_at"), "\(refused.stderr)")
    }

    /// People are shown by the names the webhooks give them (`participant.name`), on their tiles and in the
    /// plan; one the webhooks do not name is shown by their identity.
    @Test func participantsAreShownByTheirNames() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.export(in: root)
        let capture = root.appendingPathComponent("capture")
        #expect(try CLI.run(["import", "livekit", dir.path, "--out", capture.path]).status == 0)
        let read = try CaptureFolder(capture).capture()
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["alice=Alice Liddell", "bob=Bob"])
        let plan = try CLI.run(["plan", capture.path])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("Alice Liddell[") && plan.stdout.contains("Bob["), "\(plan.stdout)")

        let log = dir.appendingPathComponent("webhooks.jsonl")
        try (try String(contentsOf: log, encoding: .utf8)).replacingOccurrences(of: #", "name": "Bob""#, with: "")
            .write(to: log, atomically: true, encoding: .utf8)
        let unnamed = root.appendingPathComponent("unnamed")
        #expect(try CLI.run(["import", "livekit", dir.path, "--out", unnamed.path]).status == 0)
        #expect(try CaptureFolder(unnamed).capture().participants.map(\.name) == ["Alice Liddell", "bob"])
    }
}
