/// Where one source is drawn.
public struct PlacedTile: Sendable, Hashable, Codable {
    public var source: LayoutSource
    public var rect: Rect
    public var z: Int
    public var fit: Fit
    /// The name of the region that placed it.
    public var region: String
    /// The region's label style, when its tiles show names.
    public var label: LabelStyle?

    public init(source: LayoutSource, rect: Rect, z: Int, fit: Fit, region: String, label: LabelStyle? = nil) {
        self.source = source
        self.rect = rect
        self.z = z
        self.fit = fit
        self.region = region
        self.label = label
    }
}

/// A region's background, painted under its tiles.
public struct RegionFill: Sendable, Hashable, Codable {
    public var region: String
    public var rect: Rect
    public var z: Int
    public var color: RGBColor

    public init(region: String, rect: Rect, z: Int, color: RGBColor) {
        self.region = region
        self.rect = rect
        self.z = z
        self.color = color
    }
}

/// A layout applied to a set of sources: what to paint, in drawing order.
///
/// Paint `background` over the canvas, then each fill and tile by ascending `z`
/// (fills of a `z` before its tiles). `regions` and `tiles` are already in that order.
public struct Arrangement: Sendable, Hashable, Codable {
    public var canvas: CanvasSize
    public var background: RGBColor
    /// Only regions that show at least one tile.
    public var regions: [RegionFill]
    public var tiles: [PlacedTile]

    public init(canvas: CanvasSize, background: RGBColor, regions: [RegionFill], tiles: [PlacedTile]) {
        self.canvas = canvas
        self.background = background
        self.regions = regions
        self.tiles = tiles
    }
}
