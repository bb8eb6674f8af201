import Testing
import StageMixPlan
import StageMixLayout
@testable import StageMixPipeline

@Suite("Tile placement")
struct PlacementTests {
    func tile(_ w: Int, _ h: Int, _ fit: Fit) -> PlannedTile {
        PlannedTile(participantId: "p", name: "P", source: .camera, region: "stage", rect: Rect(x: 100, y: 50, width: w, height: h),
                    z: 0, fit: fit, show: .video, trackId: "t", layer: nil, placeholderReason: nil)
    }

    @Test func aLayerSlightlyLargerThanItsTileIsCroppedNotScaled() {
        let p = CanvasPainter.placement(of: CanvasSize(width: 640, height: 360), in: tile(636, 358, .contain))
        // 357.75 rows exactly: the nearest even height fills the tile, and 636x358 of the layer is copied.
        #expect(p.destination == Rect(x: 100, y: 50, width: 636, height: 358))
        #expect(p.sourceCrop == Rect(x: 2, y: 0, width: 636, height: 358))
        let cover = CanvasPainter.placement(of: CanvasSize(width: 640, height: 360), in: tile(636, 358, .cover))
        #expect(cover.destination == Rect(x: 100, y: 50, width: 636, height: 358))
        #expect(cover.sourceCrop == Rect(x: 2, y: 0, width: 636, height: 358))
    }

    @Test func aMuchLargerOrSmallerLayerIsScaled() {
        let down = CanvasPainter.placement(of: CanvasSize(width: 1280, height: 720), in: tile(636, 358, .contain))
        #expect(down.destination.width == 636 && down.sourceCrop == nil)
        let up = CanvasPainter.placement(of: CanvasSize(width: 320, height: 180), in: tile(636, 358, .contain))
        #expect(up.sourceCrop == nil)
    }
}
