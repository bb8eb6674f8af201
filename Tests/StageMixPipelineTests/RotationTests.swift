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

    /// A camera that turns upright mid-file (a phone rotated: Stream's and LiveKit's MKVs, Agora's slices)
    /// shows only the new picture: the old landscape pixels beside the new portrait one are gone.
    @Test func aPictureThatTurnsUprightMidFileShowsOnlyTheNewPicture() throws {
        let remade = try RemadeCapture(codec: .h264, scenario: RemadeCapture.anaAndBen(durationMs: 2_000))
        defer { remade.cleanup() }
        for layer in try remade.track("TR_ana_cam").layers ?? [] {
            // Red landscape for a second, then a green portrait picture of the same area, in one MPEG-TS
            // stream (a new SPS mid-stream, as a sender that changes resolution writes it).
            let first = remade.root.appendingPathComponent("first-\(layer.quality).ts")
            let second = remade.root.appendingPathComponent("second-\(layer.quality).ts")
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=\(layer.width)x\(layer.height):r=30:d=1",
                                      "-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p", "-output_ts_offset", "0", first.path])
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "color=c=0x00C000:s=\(layer.height / 2 * 2)x\(layer.width):r=30:d=1",
                                      "-c:v", "libx264", "-g", "15", "-pix_fmt", "yuv420p", "-output_ts_offset", "1", second.path])
            let joined = (layer.file as NSString).deletingPathExtension + ".ts"
            try (try Data(contentsOf: first) + Data(contentsOf: second)).write(to: remade.directory.appendingPathComponent(joined))
            try FileManager.default.removeItem(at: remade.directory.appendingPathComponent(layer.file))
            try remade.rename(layer.file, to: joined)
        }
        let composed = try remade.compose(ComposeSettings(preset: "ultrafast", videoRate: .crf(12)))
        let red = RGBColor(r: 255, g: 0, b: 0), green = RGBColor(r: 0, g: 0xC0, b: 0)
        #expect(try composed.tile("p-ana", at: 0.5).colour.isClose(to: red, tolerance: 40))
        #expect(try composed.tile("p-ana", at: 0.5, x: 0.05, y: 0.5).colour.isClose(to: red, tolerance: 40))
        for t in [1.3, 1.6, 1.9] {
            #expect(try composed.tile("p-ana", at: t).colour.isClose(to: green, tolerance: 40), "t=\(t)")
            // Beside the portrait picture: the tile's background, not what the landscape one left there.
            for x in [0.05, 0.95] {
                let bar = try composed.tile("p-ana", at: t, x: x, y: 0.5).colour
                #expect(!bar.isClose(to: red, tolerance: 90) && !bar.isClose(to: green, tolerance: 60), "t=\(t) x=\(x): \(bar)")
            }
        }
    }
}

