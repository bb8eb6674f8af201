/// Edits made after the session (`--edits FILE`, docs/edits.md): participants left out of the
/// composition, for the whole session or for stretches of it (they are neither seen nor heard, and
/// the layout reflows as if they had left the stage), and stretches in which microphones are muted.
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
        func contains(_ ms: Int) -> Bool { fromMs <= ms && ms < toMs }
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

    public var exclude: [Exclusion]
    public var mute: [Mute]

    public init(exclude: [Exclusion] = [], mute: [Mute] = []) {
        self.exclude = exclude
        self.mute = mute
    }

    public static let none = SessionEdits()
    public var isEmpty: Bool { exclude.isEmpty && mute.isEmpty }

    /// Is `participantId` left out at `ms`?
    func excludes(_ participantId: String, atMs ms: Int) -> Bool {
        exclude.contains { $0.participantId == participantId && ($0.spans?.contains { $0.contains(ms) } ?? true) }
    }

    /// Are `participantId`'s microphones muted at `ms`?
    func mutes(_ participantId: String, atMs ms: Int) -> Bool {
        mute.contains { ($0.participantId == nil || $0.participantId == participantId) && $0.span.contains(ms) }
    }

    /// Every instant an edit starts or ends, ascending: where the stage may change.
    var boundaries: [Int] {
        let spans = exclude.flatMap { $0.spans ?? [] } + mute.map(\.span)
        return Array(Set(spans.flatMap { [$0.fromMs, $0.toMs] })).sorted()
    }

    /// `stage` at `ms` with the edits applied: the left-out participants removed, muted microphones muted.
    func applied(to stage: [OnStageParticipant], atMs ms: Int) -> [OnStageParticipant] {
        guard !isEmpty else { return stage }
        return stage.compactMap { person in
            if excludes(person.participantId, atMs: ms) { return nil }
            guard mutes(person.participantId, atMs: ms) else { return person }
            var muted = person
            muted.tracks = person.tracks.map { track in
                var t = track
                if t.kind == .audio { t.flow = .muted }
                return t
            }
            return muted
        }
    }
}
