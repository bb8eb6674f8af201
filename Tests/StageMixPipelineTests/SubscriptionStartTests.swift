import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// A participant pinned mid-GOP shows the picture at or before the pin, decoded forward from the
/// keyframe before it, even from MPEG-TS (whose backward seek lands on the next keyframe) with
/// B-frames and timestamps starting at 10 s, as the ffmpeg CLI writes it.
@Suite("subscription start", .serialized)
struct SubscriptionStartTests {
    static func scenario() -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let ana = ScenarioParticipant.palette(0, id: "p-ana", name: "Ana", tracks: tracks("ana"))
        let ben = ScenarioParticipant.palette(1, id: "p-ben", name: "Ben", tracks: tracks("ben"))
        var events: [ScenarioEvent] = [.joined(0, ana.id, role: "host"), .joined(0, ben.id, role: "speaker"), .pinned(0, ana.id)]
        events += ["ana", "ben"].flatMap { k in [ScenarioEvent.published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")] }
        events.append(.pinned(1_100, ben.id))
        return Scenario(sessionId: "pin", durationMs: 4_000, roles: ScenarioRole.stageRoles, participants: [ana, ben], events: events)
    }

    @Test func aTileShowsItsPictureFromThePinOnFromMPEGTSWithBFrames() throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-pin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: .h264).synthesize(Self.scenario(), to: captureDir)
        let ben = try #require(expected.tracks.first { $0.id == "TR_ben_cam" })
        var manifest = try String(contentsOf: captureDir.appendingPathComponent("session.json"), encoding: .utf8)
        for layer in ben.layers ?? [] {
            // One keyframe a second, three B-frames, timestamps from 10 s, in MPEG-TS.
            let ts = layer.file.replacingOccurrences(of: ".mp4", with: ".ts")
            _ = try SourceColourTests.ffmpeg([
                "-f", "lavfi", "-i", "color=c=0x2080C0:s=\(layer.width)x\(layer.height):r=30:d=4",
                "-c:v", "libx264", "-bf", "3", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                "-colorspace", "bt709", "-output_ts_offset", "10", "-f", "mpegts", captureDir.appendingPathComponent(ts).path])
            try FileManager.default.removeItem(at: captureDir.appendingPathComponent(layer.file))
            manifest = manifest.replacingOccurrences(of: layer.file, with: ts)
        }
        try manifest.write(to: captureDir.appendingPathComponent("session.json"), atomically: true, encoding: .utf8)

        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try CompositionJob(capture: capture, document: doc, settings: ComposeSettings(preset: "ultrafast")).run(out: out)
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        let want = RGBColor(r: 0x20, g: 0x80, b: 0xC0)
        for t in [1.15, 1.5, 1.9, 2.5] {
            let frame = try #require(output.frame(at: t))
            let tile = try #require(doc.plan.interval(atMs: Int(t * 1000))?.tiles.first { $0.participantId == "p-ben" })
            #expect(tile.show == .video)
            let got = try #require(frame.pixelRGB(x: tile.rect.x + tile.rect.width / 2, y: tile.rect.y + tile.rect.height * 3 / 4))
            #expect(got.isClose(to: want, tolerance: 12), "t=\(t): Ben's tile is \(got), not his picture")
        }
    }
}
