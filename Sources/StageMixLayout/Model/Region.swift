/// A rectangle of the canvas that tiles some of the sources.
///
/// Position and size are fractions of the canvas, so a layout scales to any
/// output size. The region takes the sources of the `sources` kinds, sorts them
/// by `order`, drops the first `skip` (those shown by earlier regions) and
/// places up to `limit` of them in a grid of at most `maxRows` x `maxColumns`.
public struct Region: Sendable, Hashable, Codable {
    public var name: String
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Drawing order: higher is drawn later, on top.
    public var z: Int
    public var maxRows: Int
    public var maxColumns: Int
    /// Pixels between neighbouring tiles at the layout's canvas size.
    public var gap: Int
    public var fit: Fit
    /// Painted under the region's tiles while it shows at least one.
    public var background: RGBColor
    public var sources: [SourceKind]
    public var order: SourceOrder
    public var skip: Int
    /// At most this many tiles; `nil` means `maxRows * maxColumns`.
    public var limit: Int?
    public var when: RegionCondition
    /// When set, tiles keep this shape inside their grid cell; otherwise a tile is its whole cell.
    public var tileAspect: TileAspect?
    /// The participant's name on each tile, or nil for none.
    public var label: LabelStyle?

    public init(name: String, x: Double, y: Double, width: Double, height: Double, z: Int = 0,
                maxRows: Int = 1, maxColumns: Int = 1, gap: Int = 0, fit: Fit = .cover,
                background: RGBColor = .black, sources: [SourceKind] = [.camera], order: SourceOrder = .pinned,
                skip: Int = 0, limit: Int? = nil, when: RegionCondition = .always, tileAspect: TileAspect? = nil,
                label: LabelStyle? = nil) {
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.z = z
        self.maxRows = maxRows
        self.maxColumns = maxColumns
        self.gap = gap
        self.fit = fit
        self.background = background
        self.sources = sources
        self.order = order
        self.skip = skip
        self.limit = limit
        self.when = when
        self.tileAspect = tileAspect
        self.label = label
    }

    /// The most tiles this region places.
    public var capacity: Int {
        // A region built in code skips the reader's limits; a grid too large to count is unlimited.
        let (cells, overflow) = maxRows.multipliedReportingOverflow(by: maxColumns)
        return min(limit ?? Int.max, overflow ? Int.max : cells)
    }
}

/// How a region sorts the sources it takes.
public enum SourceOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// By pin time, then stage order.
    case pinned
    /// By stage order, then pin time.
    case stage
}

/// When a region is in use.
public enum RegionCondition: String, Sendable, Hashable, Codable, CaseIterable {
    case always
    /// Only while some screen share source is present.
    case screenShare = "screen_share"
    /// Only while no screen share source is present.
    case noScreenShare = "no_screen_share"
}
