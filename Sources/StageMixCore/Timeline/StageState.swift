/// The stage as events leave it at one instant: a value-type state machine fed one event at a time.
struct StageState {
    struct ParticipantState {
        var mode: ParticipantMode
        var role: String?
        var pinnedAtMs: Int?
        var stageOrder: Int?
    }

    struct TrackState {
        var published = false
        var muted = false
        var pausedAtMs: Int?
        var allowed = true
    }

    let capture: Capture
    private(set) var participants: [String: ParticipantState] = [:]
    private(set) var tracks: [String: TrackState] = [:]
    private var nextStageOrder = 0

    init(capture: Capture) { self.capture = capture }

    mutating func apply(_ event: SessionEvent) {
        switch event.action {
        case let .participantJoined(id, mode, role):
            participants[id] = ParticipantState(mode: mode, role: role)
            for track in capture.tracks where track.participantId == id { tracks[track.id] = nil }
        case let .participantLeft(id):
            participants[id] = nil
            for track in capture.tracks where track.participantId == id { tracks[track.id]?.published = false }
        case let .modeChanged(id, mode):
            participants[id]?.mode = mode
        case let .pinned(id):
            if participants[id]?.pinnedAtMs == nil { participants[id]?.pinnedAtMs = event.atMs }
        case let .unpinned(id):
            participants[id]?.pinnedAtMs = nil
        case let .roleChanged(id, role, _):
            participants[id]?.role = role
        case let .trackPublished(id):
            var state = tracks[id] ?? TrackState()
            state.published = true
            state.muted = false
            state.pausedAtMs = nil
            tracks[id] = state
        case let .trackUnpublished(id):
            tracks[id]?.published = false
        case let .trackMuted(id):
            tracks[id, default: TrackState()].muted = true
        case let .trackUnmuted(id):
            tracks[id, default: TrackState()].muted = false
        case let .streamState(id, state):
            switch state {
            case .paused:
                // A second pause report does not restart the grace period.
                tracks[id, default: TrackState()].pausedAtMs = tracks[id]?.pausedAtMs ?? event.atMs
            case .active:
                tracks[id, default: TrackState()].pausedAtMs = nil
            }
        case let .subscriptionPermission(id, allowed):
            tracks[id, default: TrackState()].allowed = allowed
        case .pubsub, .sessionEnded:
            break
        }
        assignStageOrder()
    }

    /// Stage order counts arrivals on stage; someone who steps off and back on queues again at the end.
    private mutating func assignStageOrder() {
        for id in participants.keys.sorted() {
            guard var state = participants[id] else { continue }
            let onStage = state.mode == .sendAndReceive && state.pinnedAtMs != nil
            if onStage, state.stageOrder == nil {
                state.stageOrder = nextStageOrder
                nextStageOrder += 1
            } else if !onStage {
                state.stageOrder = nil
            }
            participants[id] = state
        }
    }

    /// Whether `role` may publish `source`. Without `roles`, or without a role, nothing is restricted.
    func may(role: String?, publish source: TrackSource) -> Bool {
        guard let roles = capture.roles, let role else { return true }
        return roles[role]?.canPublish.contains(source.requiredRight) ?? false
    }

    /// Everyone on stage at `nowMs` and their subscribable tracks.
    func onStage(atMs nowMs: Int, pauseGraceMs: Int) -> [OnStageParticipant] {
        var result: [OnStageParticipant] = []
        for (id, state) in participants {
            guard state.mode == .sendAndReceive, let pinnedAt = state.pinnedAtMs, let order = state.stageOrder
            else { continue }
            var subscribed: [SubscribedTrack] = []
            for track in capture.tracks where track.participantId == id {
                guard let ts = tracks[track.id], ts.published, ts.allowed,
                      may(role: state.role, publish: track.source) else { continue }
                let flow: MediaFlow
                if ts.muted {
                    flow = .muted
                } else if let pausedAt = ts.pausedAtMs {
                    flow = nowMs < pausedAt + pauseGraceMs ? .pausedHolding : .paused
                } else {
                    flow = .flowing
                }
                subscribed.append(SubscribedTrack(trackId: track.id, kind: track.kind, source: track.source, flow: flow))
            }
            result.append(OnStageParticipant(
                participantId: id, name: capture.participant(id)?.name ?? id, role: state.role,
                pinnedAtMs: pinnedAt, stageOrder: order, tracks: subscribed))
        }
        return result.sorted { $0.stageOrder < $1.stageOrder }
    }

    /// When paused streams still within grace will flip to the placeholder.
    func graceDeadlines(pauseGraceMs: Int) -> [Int] {
        tracks.values.compactMap { $0.pausedAtMs.map { $0 + pauseGraceMs } }
    }
}
