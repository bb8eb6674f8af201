/// Counts who is on stage (in the session, `SEND_AND_RECV` and pinned) while the validator follows
/// the events, so a capture cannot put more on stage at once than docs/limits.md allows: every stretch
/// of the timeline and the plan holds the whole stage, so its size multiplies all later work.
struct StageCensus {
    private var sending: Set<String> = []
    private var pinned: Set<String> = []
    private(set) var onStage = 0

    /// Follows an event the validator accepted; `true` when it brought its participant on stage.
    mutating func apply(_ action: SessionEvent.Action) -> Bool {
        let id: String
        switch action {
        case let .participantJoined(participant, mode, _):
            id = participant
            return change(id) {
                if mode == .sendAndReceive { $0.sending.insert(id) } else { $0.sending.remove(id) }
                $0.pinned.remove(id)
            }
        case let .participantLeft(participant):
            id = participant
            return change(id) { $0.sending.remove(id); $0.pinned.remove(id) }
        case let .modeChanged(participant, mode):
            id = participant
            return change(id) { if mode == .sendAndReceive { $0.sending.insert(id) } else { $0.sending.remove(id) } }
        case let .pinned(participant):
            id = participant
            return change(id) { $0.pinned.insert(id) }
        case let .unpinned(participant):
            id = participant
            return change(id) { $0.pinned.remove(id) }
        default:
            return false
        }
    }

    private func isOnStage(_ id: String) -> Bool { sending.contains(id) && pinned.contains(id) }

    private mutating func change(_ id: String, _ body: (inout StageCensus) -> Void) -> Bool {
        let before = isOnStage(id)
        body(&self)
        let after = isOnStage(id)
        onStage += (after ? 1 : 0) - (before ? 1 : 0)
        return after && !before
    }
}
