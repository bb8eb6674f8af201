public import StageMixCapture
/// A stretch `[startMs, endMs)` of the composition's time during which the stage does not change.
/// That is session time unless edits took time out (trim, cut): then it is output time, and the
/// session is read `sessionOffsetMs` later.
public struct StageSegment: Sendable, Hashable, Codable {
    public var startMs: Int
    public var endMs: Int
    /// Everyone on stage (joined, `SEND_AND_RECV`, pinned), in stage order.
    public var onStage: [OnStageParticipant]
    /// Session time minus output time over this segment; nil where they are the same.
    public var sessionOffsetMs: Int?

    public init(startMs: Int, endMs: Int, onStage: [OnStageParticipant], sessionOffsetMs: Int? = nil) {
        self.startMs = startMs; self.endMs = endMs; self.onStage = onStage; self.sessionOffsetMs = sessionOffsetMs
    }

    public var durationMs: Int { endMs - startMs }
}

/// A participant on stage during a segment, with the tracks the contract lets the composition subscribe to.
public struct OnStageParticipant: Sendable, Hashable, Codable {
    public var participantId: String
    public var name: String
    public var role: String?
    /// When they were last pinned; the spotlight goes to the earliest.
    public var pinnedAtMs: Int
    /// Order of coming on stage; breaks ties between equal pin times.
    public var stageOrder: Int
    public var tracks: [SubscribedTrack]
    /// Why they have no tile while on stage (no track may be subscribed): `role viewer may not
    /// publish`, `publishing nothing`, `their tracks are forbidden to subscribers`; nil while they have one.
    public var notShown: String?

    public init(participantId: String, name: String, role: String?, pinnedAtMs: Int, stageOrder: Int,
                tracks: [SubscribedTrack], notShown: String? = nil) {
        self.participantId = participantId; self.name = name; self.role = role
        self.pinnedAtMs = pinnedAtMs; self.stageOrder = stageOrder; self.tracks = tracks
        self.notShown = tracks.isEmpty ? notShown : nil
    }

    /// The contract gives an on-stage participant a tile while at least one of their tracks is subscribed.
    public var hasTile: Bool { !tracks.isEmpty }
    public func track(source: TrackSource) -> SubscribedTrack? { tracks.first { $0.source == source } }
}

/// A track that is published, allowed, permitted by its publisher's role, and belongs to someone on stage.
public struct SubscribedTrack: Sendable, Hashable, Codable {
    public var trackId: String
    public var kind: TrackKind
    public var source: TrackSource
    public var flow: MediaFlow

    public init(trackId: String, kind: TrackKind, source: TrackSource, flow: MediaFlow) {
        self.trackId = trackId; self.kind = kind; self.source = source; self.flow = flow
    }
}

/// Whether media is flowing on a subscribed track, and what a tile shows when it is not.
public enum MediaFlow: String, Sendable, Hashable, Codable {
    /// Media flows: the tile shows live video, the mix hears the audio.
    case flowing
    /// Publisher muted it: video shows the placeholder, audio is silence.
    case muted
    /// Stream paused, still within the grace period: the tile holds the last frame.
    case pausedHolding = "paused_holding"
    /// Stream paused longer than the grace period: the tile shows the placeholder.
    case paused

    /// Only flowing media carries data (and so counts toward billing).
    public var carriesMedia: Bool { self == .flowing }
}
