public import StageMixLayout

/// A stretch `[startMs, endMs)` over which the composite's layout, tiles, layers and audio do not change.
public struct PlanInterval: Sendable, Hashable, Codable {
    public var startMs: Int
    public var endMs: Int
    /// Region backgrounds, painted before tiles.
    public var regions: [RegionFill]
    /// In paint order: ascending `z`, then layout order.
    public var tiles: [PlannedTile]
    public var audio: [PlannedAudio]
    /// Session time minus output time here, when edits took time out (trim, cut); nil where they match.
    /// Media is read at `t + sessionOffsetMs` for output time `t`.
    public var sessionOffsetMs: Int?

    public var durationMs: Int { endMs - startMs }
    /// Where output instant `ms` of this interval lies in the session.
    public func sessionMs(_ ms: Int) -> Int { ms + (sessionOffsetMs ?? 0) }
    /// Sum of width × height of the subscribed layers with video flowing.
    public var aggregatePixels: Int { tiles.reduce(0) { $0 + $1.flowingPixels } }

    /// Same composite read from the same place in the session, ignoring when.
    func sameContent(as other: PlanInterval) -> Bool {
        regions == other.regions && tiles == other.tiles && audio == other.audio && sessionOffsetMs == other.sessionOffsetMs
    }
}
