import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// While the planned layer has no picture yet, the tile shows another layer of the track that has
/// one, not the placeholder, and the report says where and which.
@Suite("layer stand-ins", .serialized)
struct LayerStandInTests {
    @Test func aLayerThatStartsLateIsStoodInForByOneThatHasPictures() throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-standin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: .vp8).synthesize(LoudnessTests.scenario().withDuration(3_000), to: captureDir)
        var capture = try CaptureReader.read(directory: captureDir)
        let plan = try PlanDocument(capture: capture, layout: try Layout.resolve("grid")).plan
        let tile = try #require(plan.interval(atMs: 500)?.tiles.first { $0.participantId == "p-ben" })
        let planned = try #require(tile.layer)
        // The planned layer, remade by the ffmpeg CLI in another colour, starts 1.5 s into the session.
        _ = try SourceColourTests.ffmpeg(["-f", "lavfi", "-i", "color=c=0xE0E020:s=\(planned.width)x\(planned.height):r=30:d=2",
                                          "-c:v", "libvpx", "-b:v", "300k", captureDir.appendingPathComponent(planned.file).path])
        let manifestURL = captureDir.appendingPathComponent("session.json")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        let withOffset = manifest.replacingOccurrences(of: "\"file\" : \"\(planned.file)\",", with: "\"file\" : \"\(planned.file)\", \"startOffsetMs\" : 1500,")
        #expect(withOffset != manifest)
        try withOffset.write(to: manifestURL, atomically: true, encoding: .utf8)

        capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        let report = try CompositionJob(capture: capture, document: doc, settings: ComposeSettings(preset: "ultrafast")).run(out: out)
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        let benColour = try RGBColor(hex: try #require(expected.participants.first { $0.id == "p-ben" }).color)
        func tileColour(at t: Double) throws -> RGBColor {
            let frame = try #require(output.frame(at: t))
            return try #require(frame.pixelRGB(x: tile.rect.x + tile.rect.width / 2, y: tile.rect.y + tile.rect.height * 3 / 4))
        }
        // Before 1.5 s: another layer, in Ben's synthesized colour; after: the planned layer's yellow.
        for t in [0.2, 0.8, 1.3] {
            let got = try tileColour(at: t)
            #expect(got.isClose(to: benColour, tolerance: 24), "t=\(t): \(got)")
        }
        for t in [1.8, 2.5] {
            let got = try tileColour(at: t)
            #expect(got.isClose(to: RGBColor(r: 0xE0, g: 0xE0, b: 0x20), tolerance: 24), "t=\(t): \(got)")
        }
        let standIn = try #require(report.layerStandIns.first { $0.trackId == "TR_ben_cam" }, "\(report.layerStandIns)")
        #expect(standIn.planned == planned.quality && standIn.shown != planned.quality)
        #expect(standIn.fromMs <= 50 && abs(standIn.toMs - 1500) <= 70, "\(standIn)")
        #expect(report.layerStandIns.count == 1, "\(report.layerStandIns)")
    }
}
