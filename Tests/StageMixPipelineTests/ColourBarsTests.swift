import Foundation
import Testing
import StageMixLayout
import StageMixMedia
import StageMixPlan
@testable import StageMixPipeline

/// SMPTE HD colour bars made by the ffmpeg CLI as a camera's every layer (VP8, so BT.601 converted to
/// the canvas's BT.709; H.264 tagged BT.709, left as it is; H.264 full range), composed at 1920x1080,
/// where the 1280x720 layer is shrunk into its tile by the tile fit kernel: every bar, away from its
/// edges, shows the colour the ffmpeg CLI renders from the source file, within 3 per channel.
@Suite("colour bars", .serialized)
struct ColourBarsTests {
    static let variants = SourceColourTests.variants.filter { ["VP8", "H.264 BT.709", "H.264 full range"].contains($0.name) }

    @Test(arguments: variants)
    func everyBarKeepsItsColourThroughTheKernel(variant: SourceColourTests.Variant) throws {
        let remade = try RemadeCapture(codec: variant.codec, scenario: RemadeCapture.anaAndBen(durationMs: 2_000))
        defer { remade.cleanup() }
        for layer in try remade.track("TR_ana_cam").layers ?? [] {
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=\(layer.width)x\(layer.height):r=30:d=2"]
                                     + variant.arguments + [remade.directory.appendingPathComponent(layer.file).path])
        }
        let composed = try remade.compose(ComposeSettings(preset: "ultrafast", videoRate: .crf(10)), canvas: CanvasSize(width: 1920, height: 1080),
                                      labels: false)
        let t = 1.0
        let tile = try #require(composed.document.plan.interval(atMs: 1_000)?.tiles.first { $0.participantId == "p-ana" })
        let layer = try #require(tile.layer)
        let placed = CanvasPainter.placement(of: CanvasSize(width: layer.width, height: layer.height), in: tile)
        let crop = placed.sourceCrop ?? Rect(x: 0, y: 0, width: layer.width, height: layer.height)
        #expect(crop.width != placed.destination.width, "\(layer.width)x\(layer.height) into \(placed.destination): scaled, not copied")
        // How the ffmpeg CLI renders the source: RGB of its frame at t.
        let file = remade.directory.appendingPathComponent(layer.file)
        let rgb = [UInt8](try RemadeCapture.ffmpeg(["-ss", "\(t)", "-i", file.path, "-frames:v", "1", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]))
        try #require(rgb.count == layer.width * layer.height * 3)
        func source(_ x: Int, _ y: Int) -> RGBColor {
            let i = (y * layer.width + x) * 3
            return RGBColor(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2])
        }
        let frame = try #require(composed.output.frame(at: t))
        // Points inside a bar: the source the same (within 2) for 8 pixels around, so no filter reaches an edge.
        let radius = 8
        var checked = 0, colours: Set<String> = []
        for sy in stride(from: crop.y + radius, to: crop.y + crop.height - radius, by: 12) {
            for sx in stride(from: crop.x + radius, to: crop.x + crop.width - radius, by: 12) {
                let want = source(sx, sy)
                var flat = true
                for oy in stride(from: -radius, through: radius, by: 2) where flat {
                    for ox in stride(from: -radius, through: radius, by: 2) where !source(sx + ox, sy + oy).isClose(to: want, tolerance: 2) {
                        flat = false
                    }
                }
                guard flat else { continue }
                let across = Double(placed.destination.width) / Double(crop.width)
                let down = Double(placed.destination.height) / Double(crop.height)
                let dx = placed.destination.x + Int((Double(sx - crop.x) + 0.5) * across)
                let dy = placed.destination.y + Int((Double(sy - crop.y) + 0.5) * down)
                let got = try #require(frame.pixelRGB(x: dx, y: dy))
                #expect(got.isClose(to: want, tolerance: 3), "\(variant): source (\(sx),\(sy)) \(want) shows \(got) at (\(dx),\(dy))")
                checked += 1
                colours.insert([want.r / 16, want.g / 16, want.b / 16].map(String.init).joined(separator: ","))
            }
        }
        // The bars, the ramp's flat parts, the PLUGE blacks and whites: many points, many colours.
        #expect(checked > 200, "\(checked) points")
        #expect(colours.count >= 8, "\(colours.count) colours")
    }
}
