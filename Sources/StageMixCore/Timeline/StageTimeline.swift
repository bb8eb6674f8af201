/// Who is on stage at every moment of a session, which of their tracks may be subscribed,
/// and what became of each stage invitation. A pure function of the capture.
public struct StageTimeline: Sendable, Hashable, Codable {
    public var sessionId: String
    public var durationMs: Int
    public var pauseGraceMs: Int
    /// Contiguous, non-overlapping, covering `[0, durationMs)`; adjacent segments always differ.
    public var segments: [StageSegment]
    public var invitations: [Invitation]
    /// What was edited after the session (left-out participants, muted stretches); nil when nothing was.
    public var edits: SessionEdits?

    /// How long a paused stream holds its last frame before the placeholder.
    public static let defaultPauseGraceMs = 3_000

    /// `edits` take participants off the stage and mute microphones where they say, as if it had
    /// happened in the session: the layout reflows and billing follows.
    public init(capture: Capture, pauseGraceMs: Int = StageTimeline.defaultPauseGraceMs, edits: SessionEdits = .none) {
        // A grace longer than the longest session holds a frame to the end, as any longer one would;
        // clamping keeps `pausedAt + grace` far from overflow.
        let pauseGraceMs = min(max(pauseGraceMs, 0), CaptureLimits.maxSessionMs)
        var state = StageState(capture: capture)
        var ledger = InvitationLedger()
        var segments: [StageSegment] = []
        let endMs = capture.durationMs
        var pending = capture.events[...]
        // Pauses start in event order, so their grace deadlines come due in the same order.
        var nextPause = 0
        var nowMs = 0
        var editBoundaries = edits.boundaries[...]
        let editIndex = SessionEditIndex(edits)

        while nowMs < endMs {
            while let event = pending.first, event.atMs <= nowMs {
                state.apply(event)
                if case let .pubsub(message) = event.action { ledger.record(message, atMs: event.atMs) }
                pending = pending.dropFirst()
            }
            while nextPause < state.pauseStarts.count, state.pauseStarts[nextPause] + pauseGraceMs <= nowMs { nextPause += 1 }
            let nextEvent = pending.first?.atMs ?? endMs
            let nextDeadline = nextPause < state.pauseStarts.count ? state.pauseStarts[nextPause] + pauseGraceMs : endMs
            while let b = editBoundaries.first, b <= nowMs { editBoundaries = editBoundaries.dropFirst() }
            let nextMs = min(nextEvent, nextDeadline, editBoundaries.first ?? endMs, endMs)
            let onStage = editIndex.applied(to: state.onStage(atMs: nowMs, pauseGraceMs: pauseGraceMs), atMs: nowMs) {
                state.tracks[$0]?.pausedAtMs
            }
            if let last = segments.last, last.onStage == onStage {
                segments[segments.count - 1].endMs = nextMs
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
        self.edits = edits.isEmpty ? nil : edits
    }

    /// The segment covering `atMs`, if within the session.
    public func segment(atMs: Int) -> StageSegment? {
        segments.covering(atMs)
    }
}
