import Foundation
import StageMixMedia

/// What a tile without video shows: a slate with the participant's name in the middle, as
/// conferencing apps show someone whose camera is off, so viewers still see who is on stage. A name
/// too wide for the tile, or one no installed font can draw, gives its initials, larger.
enum PlaceholderCard {
    static let slate = RGBColor(r: 0x3A, g: 0x3F, b: 0x4B)
    static let ink = RGBColor(r: 0xD0, g: 0xD4, b: 0xDC)

    /// The name is an eighth of the tile's height (at most 48 px) and within four fifths of its width.
    static func nameSize(in tile: Rect) -> Int { min(48, tile.height / 8) }
    /// Initials are a fifth of the tile's height (at most 96 px).
    static func initialsSize(in tile: Rect) -> Int { min(96, tile.height / 5) }
    static func maxTextWidth(in tile: Rect) -> Int { tile.width * 4 / 5 }

    /// The text on the card of `name` in `tile`, and its size; nil when nothing legible fits.
    static func text(for name: String, in tile: Rect, typesetter: NameTypesetter) -> (text: String, size: Int)? {
        let size = nameSize(in: tile), maxWidth = maxTextWidth(in: tile)
        if size >= LabelPainter.minSize, typesetter.canDraw(name), typesetter.width(name, size: size) <= maxWidth {
            return (name, size)
        }
        let initials = typesetter.initials(of: name), large = initialsSize(in: tile)
        guard large >= LabelPainter.minSize, !initials.isEmpty, typesetter.width(initials, size: large) <= maxWidth
        else { return nil }
        return (initials, large)
    }

    /// Paints the card for `name` over `tile`: the text centred, a little above the middle.
    static func paint(name: String, in tile: Rect, on canvas: CanvasFrame, typesetter: NameTypesetter) throws(MediaError) {
        try canvas.fill(rect: tile, color: slate)
        guard let (text, size) = text(for: name, in: tile, typesetter: typesetter),
              let mask = try typesetter.mask(text, size: size) else { return }
        let x = tile.x + (tile.width - mask.width) / 2
        let y = tile.y + tile.height * 9 / 20 - mask.height / 2
        try canvas.blend(mask, at: (x, y), color: ink)
    }
}
