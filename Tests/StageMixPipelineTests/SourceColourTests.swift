import Foundation
import Testing
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

    @Test(arguments: variants)
    func aTileShowsTheColourTheFFmpegCLIRenders(variant: Variant) throws {
        let remade = try RemadeCapture(codec: variant.codec, scenario: RemadeCapture.anaAndBen(durationMs: 2_000))
        defer { remade.cleanup() }
        // Ana's camera, every layer, remade by the ffmpeg CLI: a saturated red and the same on every layer.
        var rendered: RGBColor?
        for layer in try remade.track("TR_ana_cam").layers ?? [] {
            let file = remade.directory.appendingPathComponent(layer.file)
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "color=c=0xC83020:s=\(layer.width)x\(layer.height):r=30:d=2"]
                                     + variant.arguments + [file.path])
            // How the ffmpeg CLI renders it: RGB of the first frame's top-left pixels.
            let rgb = try RemadeCapture.ffmpeg(["-i", file.path, "-frames:v", "1", "-vf", "crop=2:2", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"])
            let here = RGBColor(r: rgb[0], g: rgb[1], b: rgb[2])
            if let rendered { #expect(here.isClose(to: rendered, tolerance: 1)) }
            rendered = here
        }
        let want = try #require(rendered)
        let composed = try remade.compose(ComposeSettings(preset: "ultrafast", videoRate: .crf(10)))
        for (x, y) in [(0.25, 0.6), (0.5, 0.75), (0.75, 0.8)] {
            let got = try composed.tile("p-ana", at: 1.0, x: x, y: y).colour
            #expect(got.isClose(to: want, tolerance: 3), "\(variant): (\(x),\(y)) is \(got), ffmpeg renders \(want)")
        }
    }
}
