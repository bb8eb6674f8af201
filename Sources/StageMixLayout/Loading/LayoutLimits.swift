/// The largest values a layout may hold (docs/limits.md). The reader rejects anything beyond them,
/// so tile arithmetic (rows x columns, tiles x gap) stays far from `Int`'s range.
public enum LayoutLimits {
    /// The canvas's width and height, each, in pixels (also even): up to 8K.
    public static let canvasSide = 2...8_192
    /// The canvas's frame rate.
    public static let fps = 1...120
    /// Entries of `regions`.
    public static let maxRegions = 64
    /// A region's `maxRows` and `maxColumns`, each.
    public static let gridSide = 1...64
    /// A region's `gap`, in pixels at the layout's canvas size.
    public static let gap = 0...canvasSide.upperBound
    /// A region's `z`.
    public static let z = -1_000...1_000
    /// A region's `skip`: at most as many sources as a capture can have participants.
    public static let skip = 0...10_000
    /// A region's `limit`: never more tiles than its largest grid.
    public static let limit = 1...(gridSide.upperBound * gridSide.upperBound)
    /// A label's `size`, the font's pixel size at the layout's canvas size: from barely legible to a caption.
    public static let labelSize = 6...256
    /// A label's `margin` from its tile's edges, in pixels at the layout's canvas size.
    public static let labelMargin = 0...1_024
}
