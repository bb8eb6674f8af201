/// Who is on stage at every moment of a session, which of their tracks may be subscribed,
/// and what became of each stage invitation. A pure function of the capture.
public struct StageTimeline: Sendable, Hashable, Codable {
    public var sessionId: String
    public var durationMs: Int
    public var pauseGraceMs: Int
    /// Contiguous, non-overlapping, covering `[0, durationMs)`; adjacent segments always differ.
    public var segments: [StageSegment]
    public var invitations: [Invitation]

    /// How long a paused stream holds its last frame before the placeholder.
    public static let defaultPauseGraceMs = 3_000

    public init(capture: Capture, pauseGraceMs: Int = StageTimeline.defaultPauseGraceMs) {
        var state = StageState(capture: capture)
        var ledger = InvitationLedger()
        var segments: [StageSegment] = []
        let endMs = capture.durationMs
        var pending = capture.events[...]
        var deadlines: Set<Int> = []
        var nowMs = 0

        while nowMs < endMs {
            while let event = pending.first, event.atMs <= nowMs {
                state.apply(event)
                if case let .pubsub(message) = event.action { ledger.record(message, atMs: event.atMs) }
                pending = pending.dropFirst()
            }
            deadlines.formUnion(state.graceDeadlines(pauseGraceMs: pauseGraceMs))
            let nextEvent = pending.first?.atMs ?? endMs
            let nextDeadline = deadlines.filter { $0 > nowMs }.min() ?? endMs
            let nextMs = min(nextEvent, nextDeadline, endMs)
            let onStage = state.onStage(atMs: nowMs, pauseGraceMs: pauseGraceMs)
            if var last = segments.last, last.onStage == onStage {
                last.endMs = nextMs
                segments[segments.count - 1] = last
            } else {
                segments.append(StageSegment(startMs: nowMs, endMs: nextMs, onStage: onStage))
            }
            nowMs = nextMs
        }
        for event in pending {
            if case let .pubsub(message) = event.action { ledger.record(message, atMs: event.atMs) }
        }
        ledger.finish(atMs: endMs)

        self.sessionId = capture.sessionId
        self.durationMs = endMs
        self.pauseGraceMs = pauseGraceMs
        self.segments = segments
        self.invitations = ledger.invitations
    }

    /// The segment covering `atMs`, if within the session.
    public func segment(atMs: Int) -> StageSegment? {
        segments.first { $0.startMs <= atMs && atMs < $0.endMs }
    }
}
