/// Who was the active speaker when, on the composition's clock: what a layout whose focus is the
/// speaker puts first. Before anyone has spoken there is no speaker (the pinned order holds).
public struct SpeakerTimeline: Sendable, Hashable, Codable {
    /// `[fromMs, toMs)` during which `participantId` is the active speaker.
    public struct Turn: Sendable, Hashable, Codable {
        public var fromMs: Int
        public var toMs: Int
        public var participantId: String
        public init(fromMs: Int, toMs: Int, participantId: String) {
            self.fromMs = fromMs
            self.toMs = toMs
            self.participantId = participantId
        }
    }

    /// In order, not overlapping; consecutive turns have different speakers or a gap between them.
    public var turns: [Turn]

    public init(turns: [Turn]) { self.turns = turns }

    /// The speaker at `ms`, if any.
    public func speaker(atMs ms: Int) -> String? { turns.covering(ms)?.participantId }

    /// Every instant the speaker changes within `[fromMs, toMs)`, ascending; found from the first turn
    /// ending after `fromMs`, so a long session's segments each cost a logarithm.
    func changes(from fromMs: Int, to toMs: Int) -> [Int] {
        var out: [Int] = []
        for turn in turns[turns.firstIndex(endingAfter: fromMs)...] {
            if turn.fromMs >= toMs { break }
            for edge in [turn.fromMs, turn.toMs] where edge > fromMs && edge < toMs && out.last != edge { out.append(edge) }
        }
        return out
    }
}
