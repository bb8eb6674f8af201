import Foundation
import Testing
import StageMixMedia
import StageMixPipeline

/// A phone camera stored landscape with a display matrix is shown upright, fitted as a portrait
/// picture, its halves where the ffmpeg CLI (which applies the matrix) puts them.
@Suite("rotation", .serialized)
struct RotationTests {
    @Test(arguments: [90, 270, 180])
    func aRotatedCameraIsShownAsPlayersShowIt(rotate: Int) throws {
        let remade = try RemadeCapture(codec: .h264, scenario: RemadeCapture.anaAndBen(durationMs: 2_000))
        defer { remade.cleanup() }
        let portrait = rotate % 180 != 0
        var shown: (left: RGBColor, right: RGBColor)?
        for layer in try remade.track("TR_ana_cam").layers ?? [] {
            let file = remade.directory.appendingPathComponent(layer.file)
            let plain = remade.root.appendingPathComponent("plain-\(layer.quality).mp4")
            // Stored: red over blue. The ffmpeg CLI writes the display matrix on a remux.
            try RemadeCapture.ffmpeg([
                "-f", "lavfi", "-i", "color=c=red:s=\(layer.width)x\(layer.height / 2):r=30:d=2",
                "-f", "lavfi", "-i", "color=c=blue:s=\(layer.width)x\(layer.height / 2):r=30:d=2",
                "-filter_complex", "[0][1]vstack,format=yuv420p", "-c:v", "libx264", plain.path])
            try RemadeCapture.ffmpeg(["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(rotate)", file.path])
            // As the ffmpeg CLI shows it: the left and right quarters, below the middle.
            let png = remade.root.appendingPathComponent("shown.png")
            try RemadeCapture.ffmpeg(["-i", file.path, "-frames:v", "1", png.path])
            let rgb = try RemadeCapture.ffmpeg(["-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            let (w, h) = portrait ? (layer.height, layer.width) : (layer.width, layer.height)
            #expect(rgb.count == w * h * 3)
            func at(_ x: Int, _ y: Int) -> RGBColor { let i = (y * w + x) * 3; return RGBColor(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2]) }
            shown = (at(w / 4, h / 2 + h / 8), at(w * 3 / 4, h / 2 + h / 8))
        }
        let want = try #require(shown)

        let composed = try remade.compose(ComposeSettings(preset: "ultrafast", videoRate: .crf(12)))
        let tile = try composed.tile("p-ana", at: 1.0).tile
        // Contain fit: a portrait picture is as tall as the tile and 9/16 of that wide, centred.
        let half = (portrait ? Double(tile.rect.height) * 9 / 16 : Double(tile.rect.width)) / Double(tile.rect.width) / 4
        let left = try composed.tile("p-ana", at: 1.0, x: 0.5 - half, y: 0.625).colour
        let right = try composed.tile("p-ana", at: 1.0, x: 0.5 + half, y: 0.625).colour
        #expect(left.isClose(to: want.left, tolerance: 12), "rotate=\(rotate): left \(left), ffmpeg shows \(want.left)")
        #expect(right.isClose(to: want.right, tolerance: 12), "rotate=\(rotate): right \(right), ffmpeg shows \(want.right)")
        if portrait {
            // Pillarboxed: beside the picture is the region's background, not the picture.
            let bar = try composed.tile("p-ana", at: 1.0, x: 0.02, y: 0.625).colour
            #expect(!bar.isClose(to: want.left, tolerance: 60) && !bar.isClose(to: want.right, tolerance: 60), "bar is \(bar)")
        }
    }
}
