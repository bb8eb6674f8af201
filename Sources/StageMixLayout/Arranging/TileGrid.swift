/// The reflowing grid inside a region: how many rows and columns a number of
/// tiles takes, and where each tile goes.
enum TileGrid {
    /// The most square grid for `count` tiles within the limits: 1 -> 1x1, 2 -> 2x1,
    /// 3-4 -> 2x2, 5-6 -> 3x2, 7-9 -> 3x3, 10-12 -> 4x3, ...; a single row or column when limited to one.
    static func shape(count: Int, maxRows: Int, maxColumns: Int) -> (columns: Int, rows: Int) {
        guard count > 0 else { return (0, 0) }
        var side = 1
        while side * side < count { side += 1 }
        var columns = min(side, maxColumns)
        var rows = (count + columns - 1) / columns
        if rows > maxRows {
            rows = maxRows
            columns = (count + rows - 1) / rows
        }
        return (columns, rows)
    }

    /// Tile rectangles, row by row, for `count` tiles in `frame`.
    ///
    /// Tiles are `gap` apart (rounded to even, shrunk if the region is too small for it);
    /// the block of tiles is centred in the frame and an incomplete last row is centred too.
    /// With `aspect`, a tile is the largest rectangle of that shape in its cell.
    static func rects(count: Int, in frame: Rect, maxRows: Int, maxColumns: Int, gap: Int, aspect: TileAspect?) -> [Rect] {
        let count = min(count, maxRows * maxColumns)
        let (columns, rows) = shape(count: count, maxRows: maxRows, maxColumns: maxColumns)
        guard count > 0, frame.width >= 2 * columns, frame.height >= 2 * rows else { return [] }
        let gap = min(Even.round(Double(gap)), room(frame.width, columns), room(frame.height, rows))
        let cellWidth = Even.floor(Double(frame.width - gap * (columns - 1)) / Double(columns))
        let cellHeight = Even.floor(Double(frame.height - gap * (rows - 1)) / Double(rows))
        let tile = tileSize(cell: (cellWidth, cellHeight), aspect: aspect)
        guard tile.width >= 2, tile.height >= 2 else { return [] }

        let left = frame.x + Even.floor((frame.width - columns * tile.width - (columns - 1) * gap) / 2)
        let top = frame.y + Even.floor((frame.height - rows * tile.height - (rows - 1) * gap) / 2)
        return (0..<count).map { index in
            let (row, column) = index.quotientAndRemainder(dividingBy: columns)
            let inRow = row == rows - 1 ? count - columns * (rows - 1) : columns
            let centring = Even.floor((columns - inRow) * (tile.width + gap) / 2)
            return Rect(x: left + centring + column * (tile.width + gap), y: top + row * (tile.height + gap),
                        width: tile.width, height: tile.height)
        }
    }

    /// The widest even gap that still leaves every one of `tiles` at least 2 pixels.
    private static func room(_ pixels: Int, _ tiles: Int) -> Int {
        tiles > 1 ? Even.floor((pixels - 2 * tiles) / (tiles - 1)) : Int.max
    }

    private static func tileSize(cell: (width: Int, height: Int), aspect: TileAspect?) -> (width: Int, height: Int) {
        guard let ratio = aspect?.ratio else { return cell }
        if Double(cell.width) / ratio <= Double(cell.height) {
            return (cell.width, min(cell.height, Even.round(Double(cell.width) / ratio)))
        }
        return (min(cell.width, Even.round(Double(cell.height) * ratio)), cell.height)
    }
}
