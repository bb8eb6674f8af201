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
        if let last = stretches.indices.last(where: { stretches[$0].trackId == trackId }),
           stretches[last].planned == planned, stretches[last].shown == shown, ms - stretches[last].toMs <= gapMs {
            stretches[last].toMs = ms + frameMs
            return
        }
        stretches.append(LayerStandIn(trackId: trackId, planned: planned, shown: shown, fromMs: ms, toMs: ms + frameMs))
    }
}
