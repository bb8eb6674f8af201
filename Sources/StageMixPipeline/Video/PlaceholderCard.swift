import Foundation
import StageMixMedia

/// What a tile without video shows: a slate with the participant's initials in the middle, as
/// conferencing apps show someone whose camera is off, so viewers still see who is on stage.
enum PlaceholderCard {
    static let slate = RGBColor(r: 0x3A, g: 0x3F, b: 0x4B)
    static let ink = RGBColor(r: 0xD0, g: 0xD4, b: 0xDC)

    /// Up to two initials: the first letter of the first and of the last word of `name`, accents
    /// folded ("José Núñez" is "JN"); letters the font lacks are skipped, so a name may give none.
    static func initials(of name: String) -> String {
        let words = name.split { !$0.isLetter && !$0.isNumber }
        let letters = words.compactMap { word -> Character? in
            word.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).uppercased()
                .first { BitmapFont.glyph($0) != nil }
        }
        guard let first = letters.first else { return "" }
        return letters.count > 1 ? String([first, letters.last!]) : String(first)
    }

    /// The rectangles painted in ink for `text` centred in `tile` (a little above the middle), each
    /// font pixel a square of an even number of canvas pixels so 4:2:0 chroma stays exact; empty when
    /// the tile is too small for text.
    static func strokes(_ text: String, in tile: Rect) -> [Rect] {
        let glyphs = text.compactMap(BitmapFont.glyph)
        guard !glyphs.isEmpty else { return [] }
        let columns = glyphs.count * BitmapFont.width + (glyphs.count - 1)
        // The text is about a fifth of the tile's height, and never wider than two thirds of it.
        var cell = min(tile.height / 5 / BitmapFont.height, tile.width * 2 / 3 / columns) & ~1
        guard cell >= 2 else { return [] }
        cell = min(cell, 16)
        let x0 = (tile.x + (tile.width - columns * cell) / 2) & ~1
        let y0 = (tile.y + tile.height * 9 / 20 - BitmapFont.height * cell / 2) & ~1
        var rects: [Rect] = []
        for (index, rows) in glyphs.enumerated() {
            let gx = x0 + index * (BitmapFont.width + 1) * cell
            for (row, bits) in rows.enumerated() {
                // Runs of lit pixels in a row become one rectangle.
                var column = 0
                while column < BitmapFont.width {
                    guard bits & (0b10000 >> column) != 0 else { column += 1; continue }
                    let start = column
                    while column < BitmapFont.width, bits & (0b10000 >> column) != 0 { column += 1 }
                    rects.append(Rect(x: gx + start * cell, y: y0 + row * cell, width: (column - start) * cell, height: cell))
                }
            }
        }
        return rects
    }

    /// Paints the card for `name` over `tile`.
    static func paint(name: String, in tile: Rect, on canvas: CanvasFrame) throws(MediaError) {
        try canvas.fill(rect: tile, color: slate)
        for stroke in strokes(initials(of: name), in: tile) {
            try canvas.fill(rect: stroke, color: ink)
        }
    }
}
