import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// A phone camera stored landscape with a display matrix is shown upright, fitted as a portrait
/// picture, its halves where the ffmpeg CLI (which applies the matrix) puts them.
@Suite("rotation", .serialized)
struct RotationTests {
    @Test(arguments: [90, 270, 180])
    func aRotatedCameraIsShownAsPlayersShowIt(rotate: Int) throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-rotation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: .h264).synthesize(LoudnessTests.scenario().withDuration(2_000), to: captureDir)
        let ana = try #require(expected.tracks.first { $0.id == "TR_ana_cam" })
        var shown: (left: RGBColor, right: RGBColor, portrait: Bool)?
        for layer in ana.layers ?? [] {
            let file = captureDir.appendingPathComponent(layer.file)
            let plain = root.appendingPathComponent("plain-\(layer.quality).mp4")
            // Stored: red over blue. The ffmpeg CLI writes the display matrix on a remux.
            _ = try SourceColourTests.ffmpeg([
                "-f", "lavfi", "-i", "color=c=red:s=\(layer.width)x\(layer.height / 2):r=30:d=2",
                "-f", "lavfi", "-i", "color=c=blue:s=\(layer.width)x\(layer.height / 2):r=30:d=2",
                "-filter_complex", "[0][1]vstack,format=yuv420p", "-c:v", "libx264", plain.path])
            _ = try SourceColourTests.ffmpeg(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", file.path])
            // As the ffmpeg CLI shows it: the left and right quarters of the middle row.
            let png = root.appendingPathComponent("shown.png")
            _ = try SourceColourTests.ffmpeg(["-i", file.path, "-frames:v", "1", png.path])
            let rgb = try SourceColourTests.ffmpeg(["-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            let portrait = rotate % 180 != 0
            let (w, h) = portrait ? (layer.height, layer.width) : (layer.width, layer.height)
            #expect(rgb.count == w * h * 3)
            func at(_ x: Int, _ y: Int) -> RGBColor { let i = (y * w + x) * 3; return RGBColor(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2]) }
            shown = (at(w / 4, h / 2 + h / 8), at(w * 3 / 4, h / 2 + h / 8), portrait)
        }
        let want = try #require(shown)

        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try CompositionJob(capture: capture, document: doc, settings: ComposeSettings(preset: "ultrafast", videoRate: .crf(12))).run(out: out)
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        let frame = try #require(output.frame(at: 1.0))
        let tile = try #require(doc.plan.interval(atMs: 1000)?.tiles.first { $0.participantId == "p-ana" })
        // Contain fit: a portrait picture is as tall as the tile and 9/16 of that wide, centred.
        let pictureWidth = want.portrait ? tile.rect.height * 9 / 16 : tile.rect.width
        let cx = tile.rect.x + tile.rect.width / 2, y = tile.rect.y + tile.rect.height / 2 + tile.rect.height / 8
        let left = try #require(frame.pixelRGB(x: cx - pictureWidth / 4, y: y))
        let right = try #require(frame.pixelRGB(x: cx + pictureWidth / 4, y: y))
        #expect(left.isClose(to: want.left, tolerance: 12), "rotate=\(rotate): left \(left), ffmpeg shows \(want.left)")
        #expect(right.isClose(to: want.right, tolerance: 12), "rotate=\(rotate): right \(right), ffmpeg shows \(want.right)")
        if want.portrait {
            // Pillarboxed: beside the picture is the region's background, not the picture.
            let bar = try #require(frame.pixelRGB(x: tile.rect.x + 4, y: y))
            #expect(!bar.isClose(to: want.left, tolerance: 60) && !bar.isClose(to: want.right, tolerance: 60), "bar is \(bar)")
        }
    }
}
