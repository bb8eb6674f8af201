/// The output's clock after `trim` and `cut` (docs/edits.md): the session's kept stretches laid end
/// to end. Each stretch of output time reads the session at a fixed offset (session = output +
/// offset), so the pipeline reads media where it was recorded while the timeline, the plan, the
/// billing and the stream's events count output time. Without trim or cut it is the identity.
public struct OutputClock: Sendable, Hashable, Codable {
    /// A kept stretch of the session, `[sessionFromMs, sessionToMs)`, shown from `outputFromMs` on.
    public struct Piece: Sendable, Hashable, Codable {
        public var sessionFromMs: Int
        public var sessionToMs: Int
        public var outputFromMs: Int

        public var offsetMs: Int { sessionFromMs - outputFromMs }
        public var outputToMs: Int { outputFromMs + sessionToMs - sessionFromMs }
    }

    /// In order, without gaps in output time; in session time the removed ranges lie between them.
    public private(set) var pieces: [Piece]
    public let sessionDurationMs: Int

    /// Keeps what `edits` do not remove of a session lasting `sessionDurationMs`.
    public init(edits: SessionEdits, sessionDurationMs: Int) {
        self.sessionDurationMs = sessionDurationMs
        var pieces: [Piece] = []
        var sessionAt = 0, outputAt = 0
        for removed in edits.removedSpans(sessionDurationMs: sessionDurationMs) + [SessionEdits.Span(fromMs: sessionDurationMs, toMs: sessionDurationMs)] {
            if removed.fromMs > sessionAt {
                pieces.append(Piece(sessionFromMs: sessionAt, sessionToMs: removed.fromMs, outputFromMs: outputAt))
                outputAt += removed.fromMs - sessionAt
            }
            sessionAt = max(sessionAt, removed.toMs)
        }
        self.pieces = pieces
    }

    /// How long the output lasts.
    public var durationMs: Int { pieces.last?.outputToMs ?? 0 }
    /// Whether output time is session time (nothing removed).
    public var isIdentity: Bool { durationMs == sessionDurationMs }

    /// Output time of session instant `ms`; nil when it was removed (or lies past the session).
    public func outputMs(sessionMs ms: Int) -> Int? {
        guard let piece = piece(where: { $0.sessionToMs > ms }), piece.sessionFromMs <= ms else { return nil }
        return ms - piece.offsetMs
    }

    /// Output time of session instant `ms`, a removed instant taken to where the output resumes after it.
    public func outputMs(resumingAt ms: Int) -> Int {
        guard let piece = piece(where: { $0.sessionToMs > ms }) else { return durationMs }
        return max(ms, piece.sessionFromMs) - piece.offsetMs
    }

    /// Session time of output instant `ms` (within the output).
    public func sessionMs(outputMs ms: Int) -> Int {
        guard let piece = piece(where: { $0.outputToMs > ms }) else { return ms + (pieces.last?.offsetMs ?? 0) }
        return ms + piece.offsetMs
    }

    /// The first piece for which `isAfter` holds, by bisection (it must be false, then true, in order).
    private func piece(where isAfter: (Piece) -> Bool) -> Piece? {
        var low = 0, high = pieces.count
        while low < high {
            let mid = (low + high) / 2
            if isAfter(pieces[mid]) { high = mid } else { low = mid + 1 }
        }
        return low < pieces.count ? pieces[low] : nil
    }

    /// `segments` (session time, covering the session) cut to the kept pieces and moved onto output
    /// time, each stamped with the offset it reads the session at. Segments of two pieces never merge:
    /// the media jumps between them.
    func apply(to segments: [StageSegment]) -> [StageSegment] {
        guard !isIdentity else { return segments }
        var out: [StageSegment] = []
        var index = 0
        for piece in pieces {
            while index < segments.count, segments[index].endMs <= piece.sessionFromMs { index += 1 }
            var k = index
            while k < segments.count, segments[k].startMs < piece.sessionToMs {
                var segment = segments[k]
                segment.startMs = max(segment.startMs, piece.sessionFromMs) - piece.offsetMs
                segment.endMs = min(segment.endMs, piece.sessionToMs) - piece.offsetMs
                segment.sessionOffsetMs = piece.offsetMs == 0 ? nil : piece.offsetMs
                out.append(segment)
                k += 1
            }
        }
        return out
    }
}
