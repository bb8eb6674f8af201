import Testing
@testable import StageMixLayout

@Suite("Grid reflow")
struct GridReflowTests {
    @Test("shape follows the stage size", arguments: [
        (1, 1, 1), (2, 2, 1), (3, 2, 2), (4, 2, 2), (5, 3, 2), (6, 3, 2), (7, 3, 3), (9, 3, 3),
        (10, 4, 3), (12, 4, 3), (13, 4, 4), (16, 4, 4), (17, 5, 4), (20, 5, 4), (21, 5, 5), (25, 5, 5),
    ])
    func shape(count: Int, columns: Int, rows: Int) {
        let shape = TileGrid.shape(count: count, maxRows: 5, maxColumns: 5)
        #expect(shape.columns == columns && shape.rows == rows)
    }

    @Test func limitedToOneRowOrColumn() {
        #expect(TileGrid.shape(count: 4, maxRows: 1, maxColumns: 6) == (columns: 4, rows: 1))
        #expect(TileGrid.shape(count: 3, maxRows: 4, maxColumns: 1) == (columns: 1, rows: 3))
        #expect(TileGrid.shape(count: 5, maxRows: 2, maxColumns: 5) == (columns: 3, rows: 2))
    }

    // Worked out by hand for 1280x720, gap 8, 16:9 tiles (docs/layouts.md shows the arithmetic).
    @Test func oneFillsTheCanvas() {
        #expect(rects(1) == [rect(0, 0, 1280, 720)])
    }

    @Test func twoSideBySide() {
        // cells (1280 - 8) / 2 = 636 wide; 636 * 9/16 = 357.75 -> 358 high, centred: (720 - 358) / 2 = 181 -> 180.
        #expect(rects(2) == [rect(0, 180, 636, 358), rect(644, 180, 636, 358)])
    }

    @Test func fourInTwoByTwo() {
        // cells 636 x 356; 356 * 16/9 = 632.9 -> 632 wide; block 1272 wide, 4 px each side.
        #expect(rects(4) == [rect(4, 0, 632, 356), rect(644, 0, 632, 356),
                             rect(4, 364, 632, 356), rect(644, 364, 632, 356)])
    }

    @Test func fiveInThreeByTwoWithTheLastRowCentred() {
        // cells (1280 - 16) / 3 = 421.3 -> 420 wide; 420 * 9/16 = 236.25 -> 236 high;
        // block 1276 x 480 -> offset (2, 120); last row of 2 shifted by (420 + 8) / 2 = 214.
        #expect(rects(5) == [rect(2, 120, 420, 236), rect(430, 120, 420, 236), rect(858, 120, 420, 236),
                             rect(216, 364, 420, 236), rect(644, 364, 420, 236)])
    }

    @Test func tilesFollowPinOrder() {
        var sources = stage(cameras: 3)
        sources.reverse()
        let tiles = builtin("grid").arrange(sources).tiles
        #expect(tiles.map(\.source.participantId) == ["p0", "p1", "p2"])
        #expect(tiles[0].rect == rect(4, 0, 632, 356))
    }

    @Test func tilesOfAGapLessRegionAbut() {
        let frame = rect(0, 0, 1280, 720)
        let tiles = TileGrid.rects(count: 4, in: frame, maxRows: 2, maxColumns: 2, gap: 0, aspect: nil)
        #expect(tiles == [rect(0, 0, 640, 360), rect(640, 0, 640, 360), rect(0, 360, 640, 360), rect(640, 360, 640, 360)])
    }

    @Test func gapShrinksWhenTheRegionIsTooSmallForIt() {
        let tiles = TileGrid.rects(count: 3, in: rect(0, 0, 20, 10), maxRows: 1, maxColumns: 3, gap: 100, aspect: nil)
        #expect(tiles.count == 3)
        #expect(tiles.allSatisfy { $0.width >= 2 && $0.isEven && rect(0, 0, 20, 10).contains($0) })
    }

    private func rects(_ count: Int) -> [Rect] {
        builtin("grid").arrange(stage(cameras: count)).tiles.map(\.rect)
    }
}
