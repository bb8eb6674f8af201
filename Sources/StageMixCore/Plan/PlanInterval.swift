import StageMixLayout

/// A stretch `[startMs, endMs)` over which the composite's layout, tiles, layers and audio do not change.
public struct PlanInterval: Sendable, Hashable, Codable {
    public var startMs: Int
    public var endMs: Int
    /// Region backgrounds, painted before tiles.
    public var regions: [RegionFill]
    /// In paint order: ascending `z`, then layout order.
    public var tiles: [PlannedTile]
    public var audio: [PlannedAudio]

    public var durationMs: Int { endMs - startMs }
    /// Sum of width × height of the subscribed layers with video flowing.
    public var aggregatePixels: Int { tiles.reduce(0) { $0 + $1.flowingPixels } }

    /// Same composite, ignoring when.
    func sameContent(as other: PlanInterval) -> Bool {
        regions == other.regions && tiles == other.tiles && audio == other.audio
    }
}
