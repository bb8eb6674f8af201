/// A Twilio region's static grid: its rows and columns for the whole composition, and the cell
/// rectangles. Twilio sizes the grid once, for the most sources the region must show at a time.
public struct TwilioGrid: Sendable, Hashable, Codable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    public var cells: Int { rows * columns }

    /// Twilio's rule for `count` cells: as square as possible, growing columns first so that rows and
    /// columns never differ by more than 1 (1x1, 1x2, 2x2, 2x3, 3x3, 3x4, ...); a side with a limit
    /// stops there and the other side grows to hold every cell; with both limits the grid is at most
    /// `maxRows` x `maxColumns` and the cells beyond it are not shown.
    public static func shape(count: Int, maxRows: Int?, maxColumns: Int?) -> TwilioGrid {
        guard count > 0 else { return TwilioGrid(rows: 0, columns: 0) }
        var columns = 1
        while columns * columns < count { columns += 1 }
        if let maxColumns { columns = min(columns, maxColumns) }
        var rows = (count + columns - 1) / columns
        if let maxRows, rows > maxRows {
            rows = maxRows
            columns = (count + rows - 1) / rows
            if let maxColumns { columns = min(columns, maxColumns) }
        }
        return TwilioGrid(rows: rows, columns: columns)
    }

    /// The grid for `count` sources in a region that never uses `excluded` cells: the smallest of
    /// Twilio's grids whose cells, less the excluded ones inside it, hold `count`, or the largest the
    /// limits allow. (Twilio does not say how `cells_excluded` sizes a grid; this keeps every source
    /// shown when the limits let it, as its chess-table example needs.)
    public static func sized(for count: Int, maxRows: Int?, maxColumns: Int?, excluded: Set<Int>) -> TwilioGrid {
        var wanted = count
        while true {
            let grid = shape(count: wanted, maxRows: maxRows, maxColumns: maxColumns)
            let usable = grid.cells - excluded.filter { $0 < grid.cells }.count
            let capped = maxRows.map { grid.rows >= $0 } == true && maxColumns.map { grid.columns >= $0 } == true
            if usable >= count || capped || wanted > count + excluded.count { return grid }
            wanted += 1
        }
    }

    /// The cell's rectangle in a region at `frame`: the region split evenly (each edge at the nearest
    /// even pixel, as 4:2:0 video needs), left to right, then top to bottom.
    public func rect(ofCell cell: Int, in frame: Rect) -> Rect {
        let (row, column) = cell.quotientAndRemainder(dividingBy: columns)
        func edge(_ origin: Int, _ length: Int, _ index: Int, _ count: Int) -> Int {
            Even.round(Double(origin) + Double(length) * Double(index) / Double(count))
        }
        let left = edge(frame.x, frame.width, column, columns), right = edge(frame.x, frame.width, column + 1, columns)
        let top = edge(frame.y, frame.height, row, rows), bottom = edge(frame.y, frame.height, row + 1, rows)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}
