public import StageMixCapture

/// A stretch of session time in which a tile showed another layer of its track than the plan chose,
/// because the planned layer had no picture there (its file starts later, or ended) and that one did.
public struct LayerStandIn: Sendable, Codable, Equatable {
    public var trackId: String
    public var planned: LayerQuality
    public var shown: LayerQuality
    public var fromMs: Int
    public var toMs: Int
}

/// Collects stand-ins frame by frame into stretches.
final class LayerStandInLog {
    private(set) var stretches: [LayerStandIn] = []
    /// Frames further apart than this start a new stretch.
    private let gapMs: Int

    init(frameMs: Int) { gapMs = frameMs * 3 / 2 + 1 }

    func record(trackId: String, planned: LayerQuality, shown: LayerQuality, atMs ms: Int, frameMs: Int) {
        record(LayerStandIn(trackId: trackId, planned: planned, shown: shown, fromMs: ms, toMs: ms + frameMs))
    }

    /// Records a stretch (a frame's, or a chunk's whole stretch), extending the track's last one it follows.
    func record(_ stretch: LayerStandIn) {
        if let last = stretches.indices.last(where: { stretches[$0].trackId == stretch.trackId }),
           stretches[last].planned == stretch.planned, stretches[last].shown == stretch.shown,
           stretch.fromMs - stretches[last].toMs <= gapMs {
            stretches[last].toMs = max(stretches[last].toMs, stretch.toMs)
            return
        }
        stretches.append(stretch)
    }
}
