import StageMixCapture
/// The stage as events leave it at one instant: a value-type state machine fed one event at a time.
///
/// An event costs work in proportion to what it changes, and `onStage` in proportion to what it
/// returns, never to the capture's whole participant or track lists: a million events must plan in
/// time linear in their number.
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
    /// The session time of every event that paused a stream, in order: each starts a grace period.
    private(set) var pauseStarts: [Int] = []
    private var nextStageOrder = 0

    /// Participants on stage, in stage order (arrivals only ever append).
    private var stage: [String] = []
    /// Track id -> its participant and position in `capture.tracks`.
    private let owners: [String: (participantId: String, index: Int)]
    private let names: [String: String]
    /// Participant id -> the tracks of theirs that have a state, cleared when they rejoin.
    private var trackStates: [String: Set<String>] = [:]
    /// Participant id -> positions in `capture.tracks` of their published tracks.
    private var published: [String: Set<Int>] = [:]

    init(capture: Capture) {
        self.capture = capture
        var owners: [String: (participantId: String, index: Int)] = [:]
        for (index, track) in capture.tracks.enumerated() where owners[track.id] == nil {
            owners[track.id] = (track.participantId, index)
        }
        self.owners = owners
        self.names = Dictionary(capture.participants.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func apply(_ event: SessionEvent) {
        switch event.action {
        case let .participantJoined(id, mode, role):
            participants[id] = ParticipantState(mode: mode, role: role)
            for trackId in trackStates[id] ?? [] { tracks[trackId] = nil }
            trackStates[id] = nil
            published[id] = nil
            settleStageOrder(of: id)
        case let .participantLeft(id):
            participants[id] = nil
            for trackId in trackStates[id] ?? [] { tracks[trackId]?.published = false }
            published[id] = nil
            settleStageOrder(of: id)
        case let .modeChanged(id, mode):
            participants[id]?.mode = mode
            settleStageOrder(of: id)
        case let .pinned(id):
            if participants[id]?.pinnedAtMs == nil { participants[id]?.pinnedAtMs = event.atMs }
            settleStageOrder(of: id)
        case let .unpinned(id):
            participants[id]?.pinnedAtMs = nil
            settleStageOrder(of: id)
        case let .roleChanged(id, role, _):
            participants[id]?.role = role
        case let .trackPublished(id):
            var state = tracks[id] ?? TrackState()
            state.published = true
            state.muted = false
            state.pausedAtMs = nil
            setTrack(id, state)
        case let .trackUnpublished(id):
            if var state = tracks[id] {
                state.published = false
                setTrack(id, state)
            }
        case let .trackMuted(id):
            update(id) { $0.muted = true }
        case let .trackUnmuted(id):
            update(id) { $0.muted = false }
        case let .streamState(id, state):
            switch state {
            case .paused:
                // A second pause report does not restart the grace period.
                if tracks[id]?.pausedAtMs == nil { pauseStarts.append(event.atMs) }
                update(id) { $0.pausedAtMs = $0.pausedAtMs ?? event.atMs }
            case .active:
                update(id) { $0.pausedAtMs = nil }
            }
        case let .subscriptionPermission(id, allowed):
            update(id) { $0.allowed = allowed }
        case .pubsub, .sessionEnded:
            break
        }
    }

    private mutating func update(_ trackId: String, _ change: (inout TrackState) -> Void) {
        var state = tracks[trackId] ?? TrackState()
        change(&state)
        setTrack(trackId, state)
    }

    /// Stores a track's state and keeps the per-participant indexes in step with it.
    private mutating func setTrack(_ trackId: String, _ state: TrackState) {
        tracks[trackId] = state
        guard let owner = owners[trackId] else { return }
        trackStates[owner.participantId, default: []].insert(trackId)
        if state.published {
            published[owner.participantId, default: []].insert(owner.index)
        } else {
            published[owner.participantId]?.remove(owner.index)
        }
    }

    /// Stage order counts arrivals on stage; someone who steps off and back on queues again at the end.
    /// Only the participant an event is about can come on or go off stage.
    private mutating func settleStageOrder(of id: String) {
        let onStage = participants[id].map { $0.mode == .sendAndReceive && $0.pinnedAtMs != nil } ?? false
        if onStage {
            guard participants[id]?.stageOrder == nil else { return }
            participants[id]?.stageOrder = nextStageOrder
            nextStageOrder += 1
            stage.removeAll { $0 == id }
            stage.append(id)
        } else {
            participants[id]?.stageOrder = nil
            if let index = stage.firstIndex(of: id) { stage.remove(at: index) }
        }
    }

    /// Whether `role` may publish `source`. Without `roles`, or without a role, nothing is restricted.
    func may(role: String?, publish source: TrackSource) -> Bool {
        guard let roles = capture.roles, let role else { return true }
        return roles[role]?.canPublish.contains(source.requiredRight) ?? false
    }

    /// Everyone on stage at `nowMs` and their subscribable tracks, in stage order.
    func onStage(atMs nowMs: Int, pauseGraceMs: Int) -> [OnStageParticipant] {
        stage.compactMap { id -> OnStageParticipant? in
            guard let state = participants[id], let pinnedAt = state.pinnedAtMs, let order = state.stageOrder else { return nil }
            var subscribed: [SubscribedTrack] = []
            var forbidden = false, refused = false
            for index in (published[id] ?? []).sorted() {
                let track = capture.tracks[index]
                guard let ts = tracks[track.id], ts.published else { continue }
                guard ts.allowed else { forbidden = true; continue }
                guard may(role: state.role, publish: track.source) else { refused = true; continue }
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
            // With no track to subscribe to, they have no tile: say why, for plan, events and reports.
            let notShown = !subscribed.isEmpty ? nil : refused ? "role \(state.role ?? "") may not publish"
                : forbidden ? "their tracks are forbidden to subscribers" : "publishing nothing"
            return OnStageParticipant(participantId: id, name: names[id] ?? id, role: state.role,
                                      pinnedAtMs: pinnedAt, stageOrder: order, tracks: subscribed, notShown: notShown)
        }
    }
}
