import Testing
@testable import StageMixLayout

/// Twilio's three grid-size tables ("The Region as a Grid"), row for row, as rows x columns.
@Suite("Twilio grid sizes")
struct TwilioGridTests {
    /// Neither `max_rows` nor `max_columns`: as square as possible, columns first.
    @Test(arguments: [(1, "1x1"), (2, "1x2"), (3, "2x2"), (4, "2x2"), (5, "2x3"), (6, "2x3"), (7, "3x3"), (9, "3x3"),
                      (10, "3x4"), (12, "3x4"), (17, "4x5"), (20, "4x5")])
    func unconstrainedGrid(_ sources: Int, _ expected: String) {
        #expect(Self.shape(sources, rows: nil, columns: nil) == expected)
    }

    /// One limit set: the other side grows to hold every source.
    @Test(arguments: [(1, 1, nil, "1x1"), (1, nil, 1, "1x1"), (2, 1, nil, "1x2"), (2, nil, 1, "2x1"), (3, 1, nil, "1x3"),
                      (3, nil, 1, "3x1"), (4, 2, nil, "2x2"), (4, nil, 2, "2x2"), (5, 2, nil, "2x3"), (5, nil, 2, "3x2"),
                      (6, 2, nil, "2x3"), (6, nil, 2, "3x2"), (7, 2, nil, "2x4"), (7, nil, 2, "4x2"), (9, 2, nil, "2x5"),
                      (9, nil, 2, "5x2"), (12, 2, nil, "2x6"), (12, nil, 2, "6x2")] as [(Int, Int?, Int?, String)])
    func unconstrainedDimension(_ sources: Int, _ maxRows: Int?, _ maxColumns: Int?, _ expected: String) {
        #expect(Self.shape(sources, rows: maxRows, columns: maxColumns) == expected)
    }

    /// Both limits: the grid stays within them and the sources beyond its cells are not shown.
    /// (Twilio's table says 2 sources are not shown for 5 sources in 1x2; 5 - 2 is 3.)
    @Test(arguments: [(1, 1, 1, "1x1", 0), (1, 1, 2, "1x1", 0), (1, 2, 2, "1x1", 0), (2, 1, 1, "1x1", 1), (2, 1, 2, "1x2", 0),
                      (2, 2, 2, "1x2", 0), (3, 1, 1, "1x1", 2), (3, 1, 2, "1x2", 1), (3, 2, 2, "2x2", 0), (4, 1, 1, "1x1", 3),
                      (4, 1, 2, "1x2", 2), (4, 2, 2, "2x2", 0), (5, 1, 1, "1x1", 4), (5, 1, 2, "1x2", 3), (5, 2, 2, "2x2", 1),
                      (9, 1, 7, "1x7", 2), (9, 2, 7, "2x5", 0), (9, 3, 7, "3x3", 0)])
    func constrainedGrid(_ sources: Int, _ maxRows: Int, _ maxColumns: Int, _ expected: String, _ unshown: Int) {
        #expect(Self.shape(sources, rows: maxRows, columns: maxColumns) == expected)
        let grid = TwilioGrid.shape(count: sources, maxRows: maxRows, maxColumns: maxColumns)
        #expect(max(0, sources - grid.cells) == unshown)
    }

    /// Excluded cells count against the grid: Twilio's chess table (3x3 at most, 1, 3, 5 and 7
    /// excluded) grows to 3x3 so that five sources each get one of the squares left.
    @Test func excludedCellsGrowTheGridWithinItsLimits() {
        let chess = TwilioGrid.sized(for: 5, maxRows: 3, maxColumns: 3, excluded: [1, 3, 5, 7])
        #expect(chess == TwilioGrid(rows: 3, columns: 3))
        let unlimited = TwilioGrid.sized(for: 2, maxRows: nil, maxColumns: nil, excluded: [0])
        #expect(unlimited == TwilioGrid(rows: 2, columns: 2), "1x2 less cell 0 holds one; 2x2 less it holds three")
        let capped = TwilioGrid.sized(for: 4, maxRows: 1, maxColumns: 2, excluded: [0])
        #expect(capped == TwilioGrid(rows: 1, columns: 2), "the limits win: one cell shows")
    }

    /// Cells split the region evenly, left to right then top to bottom, on even pixels.
    @Test func cellRectanglesSplitTheRegion() {
        let grid = TwilioGrid(rows: 2, columns: 3)
        let frame = Rect(x: 10, y: 0, width: 1260, height: 720)
        #expect(grid.rect(ofCell: 0, in: frame) == Rect(x: 10, y: 0, width: 420, height: 360))
        #expect(grid.rect(ofCell: 4, in: frame) == Rect(x: 430, y: 360, width: 420, height: 360))
        let odd = grid.rect(ofCell: 1, in: Rect(x: 0, y: 0, width: 640, height: 480))
        #expect(odd.x % 2 == 0 && odd.width % 2 == 0, "\(odd)")
        #expect(odd == Rect(x: 214, y: 0, width: 212, height: 240))
    }

    static func shape(_ count: Int, rows: Int?, columns: Int?) -> String {
        let grid = TwilioGrid.shape(count: count, maxRows: rows, maxColumns: columns)
        return "\(grid.rows)x\(grid.columns)"
    }
}
