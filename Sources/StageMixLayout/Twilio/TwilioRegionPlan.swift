/// What a Twilio region shows over the whole composition: its static grid and, cell by cell, which
/// source is shown when. Worked out by ``TwilioCellPlanner``.
public struct TwilioRegionPlan: Sendable, Hashable, Codable {
    public var region: TwilioRegion
    public var grid: TwilioGrid
    /// Ordered by start, then cell.
    public var assignments: [TwilioCellAssignment]

    public init(region: TwilioRegion, grid: TwilioGrid, assignments: [TwilioCellAssignment]) {
        self.region = region
        self.grid = grid
        self.assignments = assignments
    }

    /// The region's rectangle on the composition, each edge at an even pixel.
    public var frame: Rect {
        let left = Even.round(Double(region.x)), top = Even.round(Double(region.y))
        return Rect(x: left, y: top, width: Even.round(Double(region.x + region.width)) - left,
                    height: Even.round(Double(region.y + region.height)) - top)
    }

    /// The assignments covering `atMs`, by cell.
    public func shown(atMs: Int) -> [TwilioCellAssignment] {
        assignments.filter { $0.fromMs <= atMs && atMs < $0.toMs }.sorted { $0.cell < $1.cell }
    }
}
