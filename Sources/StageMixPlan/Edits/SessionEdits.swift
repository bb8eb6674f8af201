/// Edits made after the session (`--edits FILE`, docs/edits.md): participants left out of the
/// composition, for the whole session or for stretches of it (they are neither seen nor heard, and
/// the layout reflows as if they had left the stage), and stretches in which microphones are muted.
/// Time can be taken out too: `trim` keeps only a stretch of the session, `cut` removes ranges; the
/// output then runs on its own clock (``OutputClock``), the session's kept stretches end to end.
/// Applied to the stage timeline, so the plan, the billing and the output all follow from it.
public struct SessionEdits: Sendable, Hashable, Codable {
    /// `[fromMs, toMs)` of session time.
    public struct Span: Sendable, Hashable, Codable {
        public var fromMs: Int
        public var toMs: Int
        public init(fromMs: Int, toMs: Int) {
            self.fromMs = fromMs
            self.toMs = toMs
        }

        /// Sorted, overlapping and touching spans joined: disjoint, so one binary search answers.
        static func merged(_ spans: [Span]) -> [Span] {
            var out: [Span] = []
            for span in spans.sorted(by: { $0.fromMs < $1.fromMs }) {
                if let last = out.last, span.fromMs <= last.toMs { out[out.count - 1].toMs = max(last.toMs, span.toMs) } else { out.append(span) }
            }
            return out
        }
    }

    /// A participant left out; `spans` nil for the whole session.
    public struct Exclusion: Sendable, Hashable, Codable {
        public var participantId: String
        public var spans: [Span]?
        public init(participantId: String, spans: [Span]? = nil) {
            self.participantId = participantId
            self.spans = spans
        }
    }

    /// Microphones silenced over `span`: one participant's, or everyone's when `participantId` is nil.
    public struct Mute: Sendable, Hashable, Codable {
        public var participantId: String?
        public var span: Span
        public init(participantId: String? = nil, span: Span) {
            self.participantId = participantId
            self.span = span
        }
    }

    /// The stretch of the session kept: from `startMs` (nil: the start) to `endMs` (nil: the end).
    public struct Trim: Sendable, Hashable, Codable {
        public var startMs: Int?
        public var endMs: Int?
        public init(startMs: Int? = nil, endMs: Int? = nil) {
            self.startMs = startMs
            self.endMs = endMs
        }
    }

    public var exclude: [Exclusion]
    public var mute: [Mute]
    public var trim: Trim?
    /// Ranges of session time removed from the output.
    public var cut: [Span]

    public init(exclude: [Exclusion] = [], mute: [Mute] = [], trim: Trim? = nil, cut: [Span] = []) {
        self.exclude = exclude
        self.mute = mute
        self.trim = trim
        self.cut = cut
    }

    public static let none = SessionEdits()
    public var isEmpty: Bool { exclude.isEmpty && mute.isEmpty && !removesTime }
    /// Whether the output is shorter than the session: a trim or a cut.
    public var removesTime: Bool { trim != nil || !cut.isEmpty }

    /// The ranges of a session of `durationMs` that the output leaves out (trim and cuts), within the
    /// session, sorted, and merged where they overlap or touch.
    public func removedSpans(sessionDurationMs durationMs: Int) -> [Span] {
        var removed = cut
        if let start = trim?.startMs, start > 0 { removed.append(Span(fromMs: 0, toMs: start)) }
        if let end = trim?.endMs, end < durationMs { removed.append(Span(fromMs: end, toMs: durationMs)) }
        let clipped = removed.map { Span(fromMs: max(0, $0.fromMs), toMs: min(durationMs, $0.toMs)) }.filter { $0.toMs > $0.fromMs }
        return Span.merged(clipped)
    }

    private enum CodingKeys: String, CodingKey { case exclude, mute, trim, cut }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        exclude = try c.decodeIfPresent([Exclusion].self, forKey: .exclude) ?? []
        mute = try c.decodeIfPresent([Mute].self, forKey: .mute) ?? []
        trim = try c.decodeIfPresent(Trim.self, forKey: .trim)
        cut = try c.decodeIfPresent([Span].self, forKey: .cut) ?? []
    }

    /// Trim and cut only when there are any, so a timeline without them reads as it always did.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(exclude, forKey: .exclude)
        try c.encode(mute, forKey: .mute)
        try c.encodeIfPresent(trim, forKey: .trim)
        if !cut.isEmpty { try c.encode(cut, forKey: .cut) }
    }

    /// Every instant an edit starts or ends, ascending: where the stage may change.
    var boundaries: [Int] {
        let spans = exclude.flatMap { $0.spans ?? [] } + mute.map(\.span)
        return Array(Set(spans.flatMap { [$0.fromMs, $0.toMs] })).sorted()
    }
}

/// The edits arranged for the timeline's loop: each participant's exclusions and mutes sorted by
/// start, looked up by binary search, so applying them costs a logarithm per person per step however
/// long the edit file is.
struct SessionEditIndex {
    private var excludedAlways: Set<String> = []
    private var excluded: [String: [SessionEdits.Span]] = [:]
    private var muted: [String: [SessionEdits.Span]] = [:]
    private var mutedForAll: [SessionEdits.Span] = []
    let isEmpty: Bool

    init(_ edits: SessionEdits) {
        isEmpty = edits.isEmpty
        for e in edits.exclude {
            if let spans = e.spans { excluded[e.participantId, default: []] += spans } else { excludedAlways.insert(e.participantId) }
        }
        for m in edits.mute {
            if let id = m.participantId { muted[id, default: []].append(m.span) } else { mutedForAll.append(m.span) }
        }
        excluded = excluded.mapValues(SessionEdits.Span.merged)
        muted = muted.mapValues(SessionEdits.Span.merged)
        mutedForAll = SessionEdits.Span.merged(mutedForAll)
    }

    /// Does any of the disjoint, sorted `spans` overlap `[from, to]`?
    private static func overlaps(_ spans: [SessionEdits.Span], from: Int, to: Int) -> Bool {
        // The first span ending after `from`.
        var low = 0, high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].toMs <= from { low = mid + 1 } else { high = mid }
        }
        return low < spans.count && spans[low].fromMs <= to
    }

    func excludes(_ id: String, atMs ms: Int) -> Bool {
        excludedAlways.contains(id) || Self.overlaps(excluded[id] ?? [], from: ms, to: ms)
    }

    func mutes(_ id: String, atMs ms: Int) -> Bool {
        Self.overlaps(mutedForAll, from: ms, to: ms) || Self.overlaps(muted[id] ?? [], from: ms, to: ms)
    }

    /// `stage` at `ms` with the edits applied: left-out participants removed, muted microphones muted,
    /// and a held frame dropped (the placeholder instead) when the pause began while its owner was
    /// left out: that frame was taken then, and must not be shown. `pausedAtMs` gives a track's pause start.
    func applied(to stage: [OnStageParticipant], atMs ms: Int, pausedAtMs: (String) -> Int?) -> [OnStageParticipant] {
        guard !isEmpty else { return stage }
        return stage.compactMap { person in
            let id = person.participantId
            if excludes(id, atMs: ms) { return nil }
            let mute = mutes(id, atMs: ms)
            var edited = person
            edited.tracks = person.tracks.map { track in
                var t = track
                if mute, t.source == .microphone { t.flow = .muted }
                if t.flow == .pausedHolding, let paused = pausedAtMs(t.trackId),
                   Self.overlaps(excluded[id] ?? [], from: paused, to: ms) {
                    t.flow = .paused
                }
                return t
            }
            return edited
        }
    }
}
