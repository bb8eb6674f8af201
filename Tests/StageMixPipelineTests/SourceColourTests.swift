import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// Cameras record in BT.601 (all VP8, most H.264), some H.264 in full range, some untagged: each tile
/// of the output must show the colour the ffmpeg CLI renders from the source file, within 3 per channel.
/// The source layers here are made by the ffmpeg CLI, not by StageMix's generator.
@Suite("source colour", .serialized)
struct SourceColourTests {
    struct Variant: Sendable, CustomStringConvertible {
        var name: String
        var codec: SynthCodec
        var arguments: [String]
        var description: String { name }
    }

    static let variants = [
        Variant(name: "H.264 BT.601 tagged", codec: .h264,
                arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m"]),
        Variant(name: "H.264 untagged", codec: .h264, arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        Variant(name: "H.264 full range", codec: .h264, arguments: ["-c:v", "libx264", "-pix_fmt", "yuvj420p", "-color_range", "pc"]),
        Variant(name: "H.264 BT.709", codec: .h264, arguments: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-colorspace", "bt709"]),
        Variant(name: "VP8", codec: .vp8, arguments: ["-c:v", "libvpx", "-b:v", "1M", "-pix_fmt", "yuv420p"]),
    ]

    static func ffmpeg(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("ffmpeg \(arguments) failed") }
        return data
    }

    @Test(arguments: variants)
    func aTileShowsTheColourTheFFmpegCLIRenders(variant: Variant) throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-colour-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: variant.codec).synthesize(LoudnessTests.scenario().withDuration(2_000), to: captureDir)
        // Ana's camera, every layer, remade by the ffmpeg CLI: a saturated red and the same on every layer.
        let ana = try #require(expected.tracks.first { $0.id == "TR_ana_cam" })
        var rendered: RGBColor?
        for layer in ana.layers ?? [] {
            let file = captureDir.appendingPathComponent(layer.file)
            _ = try Self.ffmpeg(["-f", "lavfi", "-i", "color=c=0xC83020:s=\(layer.width)x\(layer.height):r=30:d=2"]
                                + variant.arguments + [file.path])
            // How the ffmpeg CLI renders it: RGB of the middle pixel of the first frame.
            let rgb = try Self.ffmpeg(["-i", file.path, "-frames:v", "1", "-vf", "crop=2:2", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"])
            let here = RGBColor(r: rgb[0], g: rgb[1], b: rgb[2])
            if let rendered { #expect(here.isClose(to: rendered, tolerance: 1)) }
            rendered = here
        }
        let want = try #require(rendered)

        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try CompositionJob(capture: capture, document: doc, settings: ComposeSettings(preset: "ultrafast", videoRate: .crf(10))).run(out: out)
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        let frame = try #require(output.frame(at: 1.0))
        let tile = try #require(doc.plan.interval(atMs: 1000)?.tiles.first { $0.participantId == "p-ana" })
        for (x, y) in ComposeEndToEndTests.probePoints(tile.rect) {
            let got = try #require(frame.pixelRGB(x: x, y: y))
            #expect(got.isClose(to: want, tolerance: 3), "\(variant): (\(x),\(y)) is \(got), ffmpeg renders \(want)")
        }
    }
}
