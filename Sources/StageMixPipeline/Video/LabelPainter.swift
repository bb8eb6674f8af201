import StageMixPlan
import StageMixLayout
import StageMixMedia

/// Draws a tile's name label: a translucent plate in the tile's corner with the name on it, cut to
/// the tile's width. The text is rasterised once (`NameTypesetter`); each paint only blends.
final class LabelPainter {
    private let typesetter: NameTypesetter
    /// Where each label went in each tile, worked out once: a frame only blends.
    private struct Key: Hashable { var label: PlannedLabel; var tile: Rect }
    private var placements: [Key: Placement?] = [:]

    init(typesetter: NameTypesetter) {
        self.typesetter = typesetter
    }

    /// Where a label goes in `tile`, and what it says; nil when the tile is too small for one.
    struct Placement: Equatable {
        var plate: Rect
        var text: String
        var size: Int
        /// The text's top-left corner (even).
        var textOrigin: (x: Int, y: Int)

        static func == (a: Placement, b: Placement) -> Bool {
            a.plate == b.plate && a.text == b.text && a.size == b.size && a.textOrigin == b.textOrigin
        }
    }

    /// The label's text is at most this share of the tile's height, so it never hides a face.
    static let maxShareOfTileHeight = 0.25
    /// The smallest text drawn: below it a label is noise.
    static let minSize = 6

    func placement(of label: PlannedLabel, in tile: Rect) -> Placement? {
        let style = label.style
        // The plate's padding: a third of the size beside the text, a sixth above and below.
        func padding(_ size: Int) -> (x: Int, y: Int) { (Self.evenUp(size / 3), Self.evenUp(size / 6)) }
        var size = style.size
        while size > Self.minSize,
              Double(typesetter.lineHeight(size: size) + 2 * padding(size).y) > Double(tile.height) * Self.maxShareOfTileHeight + 2 {
            size -= 1
        }
        let pad = padding(size)
        let lineHeight = Self.evenUp(typesetter.lineHeight(size: size))
        let plateHeight = lineHeight + 2 * pad.y
        let margin = Self.evenUp(style.margin)
        let maxPlateWidth = Self.evenDown(tile.width - 2 * margin)
        guard size >= Self.minSize, plateHeight <= tile.height - 2 * margin,
              let text = typesetter.fit(label.text, size: size, maxWidth: maxPlateWidth - 2 * pad.x)
        else { return nil }
        let plateWidth = Self.evenUp(typesetter.width(text, size: size)) + 2 * pad.x
        let x = style.position.isLeft ? tile.x + margin : tile.x + tile.width - margin - plateWidth
        let y = style.position.isBottom ? tile.y + tile.height - margin - plateHeight : tile.y + margin
        let plate = Rect(x: Self.evenDown(x), y: Self.evenDown(y), width: plateWidth, height: plateHeight)
        return Placement(plate: plate, text: text, size: size, textOrigin: (plate.x + pad.x, plate.y + pad.y))
    }

    /// 4:2:0 wants even positions and sizes.
    private static func evenUp(_ value: Int) -> Int { (value + 1) & ~1 }
    private static func evenDown(_ value: Int) -> Int { value & ~1 }

    /// Paints `label` over `tile`; draws nothing where it cannot be placed.
    func paint(_ label: PlannedLabel, in tile: Rect, on canvas: CanvasFrame) throws(MediaError) {
        let key = Key(label: label, tile: tile)
        if placements[key] == nil {
            if placements.count >= 1024 { placements = [:] }
            placements[key] = .some(placement(of: label, in: tile))
        }
        guard let placement = placements[key] ?? nil,
              let mask = try typesetter.mask(placement.text, size: placement.size) else { return }
        try canvas.blend(rect: placement.plate, color: label.style.plate, opacity: label.style.plateOpacity)
        // The line box is centred on the plate whatever height the glyphs took.
        let lineHeight = typesetter.lineHeight(size: placement.size)
        let y = placement.textOrigin.y - (mask.height - lineHeight) / 2
        try canvas.blend(mask, at: (placement.textOrigin.x, y), color: label.style.color)
    }
}
