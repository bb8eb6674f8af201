/// Where a 100ms track recording's first sample falls on the wall clock, and how well that is known.
/// 100ms writes no start time into a track recording or its `track.recording.success` webhook (whose
/// envelope time is when the upload finished, minutes after the fact), so the start comes from the
/// best of what the saved JSON gives, in this order:
///
/// 1. the track's `started_at` in 100ms's track events (`track.add.success`), to the millisecond;
/// 2. the `track.recording.started.success` webhook's envelope time (whole seconds in 100ms's
///    samples, and sent after the fact), unless the end below agrees with it within 1.5 s;
/// 3. the end: the peer's `left_at` or the session's end, whichever is earlier, less the file's own
///    length: exact when the track lasted until then, else the track started earlier;
/// 4. the peer's `joined_at`: the earliest the track can have started;
/// 5. the success webhook's time less the file's length: the latest it can have started.
///
/// A start before the peer's join is moved to the join.
struct HundredMsPlacement: Equatable {
    var startMs: Int64
    /// How the start was found, for `import.json`'s `alignment`.
    var basis: String
    /// True when the start is known to about a frame (1, or 2/3 cross-checked).
    var isExact: Bool

    struct Clues {
        var durationMs: Int64?
        var trackStartedMs: Int64?
        var recordingStartedMs: Int64?
        var successSentMs: Int64?
        var joinedMs: Int64?
        var leftMs: Int64?
        var sessionEndMs: Int64?
    }

    static let agreement: Int64 = 1_500

    static func estimate(_ clues: Clues) -> HundredMsPlacement? {
        let ends: [(ms: Int64, what: String)] = [
            clues.leftMs.map { (ms: $0, what: "the peer's left_at") }, clues.sessionEndMs.map { (ms: $0, what: "the session's end") },
        ].compactMap { $0 }
        let end = ends.min { $0.ms < $1.ms }
        let fromEnd = end.flatMap { end in clues.durationMs.map { (ms: end.ms - $0, what: end.what) } }
        var placement: HundredMsPlacement
        if let started = clues.trackStartedMs {
            placement = HundredMsPlacement(startMs: started, basis: "the track's started_at in 100ms's track events, to the millisecond", isExact: true)
        } else if let sent = clues.recordingStartedMs {
            if let fromEnd, abs(fromEnd.ms - sent) <= agreement {
                placement = HundredMsPlacement(startMs: fromEnd.ms, basis: "\(fromEnd.what) less the file's length, which track.recording.started.success confirms within 1.5 s",
                                               isExact: true)
            } else {
                placement = HundredMsPlacement(startMs: sent, basis: "the track.recording.started.success webhook's time: within about a second, as 100ms stamps it", isExact: false)
            }
        } else if let fromEnd {
            placement = HundredMsPlacement(startMs: fromEnd.ms, basis: "\(fromEnd.what) less the file's length: exact only if the track lasted until then, else it started earlier",
                                           isExact: false)
        } else if let joined = clues.joinedMs {
            placement = HundredMsPlacement(startMs: joined, basis: "the peer's joined_at: the earliest it can have started, the track began then or after", isExact: false)
        } else if let sent = clues.successSentMs, let length = clues.durationMs {
            placement = HundredMsPlacement(startMs: sent - length, basis: "the track.recording.success webhook's time less the file's length: "
                                           + "the latest it can have started, as the webhook comes after the upload", isExact: false)
        } else {
            return nil
        }
        if let joined = clues.joinedMs, placement.startMs < joined {
            placement.startMs = joined
            placement.basis += "; moved to the peer's joined_at, which is later"
        }
        return placement
    }
}
