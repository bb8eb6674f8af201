extension Layout {
    /// Places the sources on the canvas.
    ///
    /// Deterministic: the same sources give the same tiles, whatever order they come in.
    /// Sources no region takes are simply not placed.
    public func arrange(_ sources: [LayoutSource]) -> Arrangement {
        let screenSharePresent = sources.contains { $0.kind == .screenShare }
        var fills: [RegionFill] = []
        var tiles: [PlacedTile] = []
        for region in regions where region.when.holds(screenSharePresent: screenSharePresent) {
            let frame = region.frame(on: canvas)
            let chosen = region.select(from: sources, speakerFirst: focus == .speaker)
            let rects = TileGrid.rects(count: chosen.count, in: frame, maxRows: region.maxRows,
                                       maxColumns: region.maxColumns, gap: region.gap, aspect: region.tileAspect)
            guard !rects.isEmpty else { continue }
            fills.append(RegionFill(region: region.name, rect: frame, z: region.z, color: region.background))
            tiles += zip(chosen, rects).map { source, rect in
                PlacedTile(source: source, rect: rect, z: region.z, fit: region.fit, region: region.name, label: region.label)
            }
        }
        return Arrangement(canvas: canvas, background: background,
                           regions: Self.inDrawingOrder(fills, z: \.z), tiles: Self.inDrawingOrder(tiles, z: \.z))
    }

    /// Stable by z, so regions keep their file order within a z.
    private static func inDrawingOrder<Item>(_ items: [Item], z: (Item) -> Int) -> [Item] {
        items.enumerated()
            .sorted { (z($0.element), $0.offset) < (z($1.element), $1.offset) }
            .map(\.element)
    }
}

extension Region {
    /// The region's rectangle in pixels, with even edges, inside the canvas.
    public func frame(on canvas: CanvasSize) -> Rect {
        let canvasWidth = Even.floor(canvas.width)
        let canvasHeight = Even.floor(canvas.height)
        let left = min(canvasWidth, Even.round(x * Double(canvasWidth)))
        let top = min(canvasHeight, Even.round(y * Double(canvasHeight)))
        let right = min(canvasWidth, Even.round((x + width) * Double(canvasWidth)))
        let bottom = min(canvasHeight, Even.round((y + height) * Double(canvasHeight)))
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The sources this region shows, in tile order; with `speakerFirst`, the speaking source leads.
    func select(from sources: [LayoutSource], speakerFirst: Bool = false) -> [LayoutSource] {
        let taken = sources.filter { self.sources.contains($0.kind) }
            .sorted { a, b in
                if speakerFirst, a.speaking != b.speaking { return a.speaking }
                return order.sortKey(a) < order.sortKey(b)
            }
        return Array(taken.dropFirst(skip).prefix(capacity))
    }
}

extension RegionCondition {
    /// Whether a region with this condition is in use, by whether any screen share is on stage.
    public func holds(screenSharePresent: Bool) -> Bool {
        switch self {
        case .always: true
        case .screenShare: screenSharePresent
        case .noScreenShare: !screenSharePresent
        }
    }
}

extension SourceOrder {
    /// A total order, so equal pin times or stage positions still sort the same way every time.
    func sortKey(_ source: LayoutSource) -> (Int, Int, Int, String) {
        let kindRank = source.kind == .camera ? 0 : 1
        switch self {
        case .pinned: return (source.pinnedAtMs, source.stageOrder, kindRank, source.participantId)
        case .stage: return (source.stageOrder, source.pinnedAtMs, kindRank, source.participantId)
        }
    }
}
