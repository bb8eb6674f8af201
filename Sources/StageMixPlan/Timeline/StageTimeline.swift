public import StageMixCapture
import StageMixOptions
import StageMixJSON

/// Who is on stage at every moment of a session, which of their tracks may be subscribed,
/// and what became of each stage invitation. A pure function of the capture (and the edits).
///
/// Times are the composition's: session time, or output time when edits took time out (trim, cut),
/// with `output` saying which stretches of the session were kept and where they went.
public struct StageTimeline: Sendable, Hashable, Codable {
    public var sessionId: String
    /// How long the composition lasts: the session, less what trim and cut removed.
    public var durationMs: Int
    public var pauseGraceMs: Int
    /// Contiguous, non-overlapping, covering `[0, durationMs)`; adjacent segments always differ.
    public var segments: [StageSegment]
    public var invitations: [Invitation]
    /// What was edited after the session (left-out participants, muted stretches); nil when nothing was.
    public var edits: SessionEdits?
    /// The session's stretches kept and where each went in the output; nil when no time was removed.
    public var output: OutputClock?

    /// How long a paused stream holds its last frame before the placeholder.
    public static let defaultPauseGraceMs = ComposeOptions().pauseGraceMsOrDefault

    /// `edits` take participants off the stage and mute microphones where they say, as if it had
    /// happened in the session: the layout reflows and billing follows.
    ///
    /// Throws when the stage changes so often, with so many on it, that the timeline and the plan would
    /// hold more than ``CaptureLimits/maxStageStretches`` participant-stretches: stopped there, before
    /// the memory they take is spent (docs/limits.md).
    public init(capture: Capture, pauseGraceMs: Int = StageTimeline.defaultPauseGraceMs, edits: SessionEdits = .none) throws(CaptureError) {
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
        var stretches = 0
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
                stretches += onStage.count
                guard stretches <= CaptureLimits.maxStageStretches else {
                    // The stretch began with the last event applied, or after it with a pause's grace or an edit's boundary.
                    let index = max(0, capture.events.count - pending.count - 1)
                    let byEvent = capture.events.indices.contains(index) && capture.events[index].atMs == nowMs
                    throw CaptureError(problems: [JSONProblem(
                        file: "session.json", path: "$.events[\(index)]",
                        expected: "a stage that changes at most \(CaptureLimits.maxStageStretches) participant-stretches in all "
                            + "(each change of the stage keeps everyone on it; docs/limits.md)",
                        found: "more by \(byEvent ? "this event" : "the change after this event (a pause's grace running out, or an edit's boundary)"), "
                            + "at \(nowMs) ms, with \(onStage.count) on stage")])
                }
                segments.append(StageSegment(startMs: nowMs, endMs: nextMs, onStage: onStage))
            }
            nowMs = nextMs
        }
        for event in pending {
            if case let .pubsub(message) = event.action { ledger.record(message, atMs: event.atMs) }
        }
        ledger.finish(atMs: endMs)

        // Time taken out last: the stage is worked out on the session's own clock (a pause's grace runs
        // on through a cut), then the kept stretches are laid end to end.
        let clock = OutputClock(edits: edits, sessionDurationMs: endMs)
        self.sessionId = capture.sessionId
        self.durationMs = clock.durationMs
        self.pauseGraceMs = pauseGraceMs
        self.segments = clock.apply(to: segments)
        self.invitations = clock.isIdentity ? ledger.invitations : ledger.invitations.map { Self.moved($0, by: clock) }
        self.edits = edits.isEmpty ? nil : edits
        self.output = clock.isIdentity ? nil : clock
    }

    /// An invitation on the output's clock: an instant that was cut goes to where the output resumes.
    private static func moved(_ invitation: Invitation, by clock: OutputClock) -> Invitation {
        var moved = invitation
        moved.requestedAtMs = clock.outputMs(resumingAt: invitation.requestedAtMs)
        if let resolved = invitation.resolvedAtMs {
            moved.resolvedAtMs = clock.outputMs(resumingAt: resolved)
            if clock.outputMs(sessionMs: resolved) == nil { moved.resolvedInCut = true }
        }
        return moved
    }

    /// The segment covering `atMs`, if within the session.
    public func segment(atMs: Int) -> StageSegment? {
        segments.covering(atMs)
    }
}
