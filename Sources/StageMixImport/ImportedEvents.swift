import StageMixCapture

/// The events an importer gathers from a platform's log, put in the contract's order: by time, and
/// at one instant a join before its pin, publications before mutes, unpublications before leaves,
/// so that a participant is on stage before their tracks start and their tracks end before they go.
/// Every participant with a recording is on stage while in the room (the platforms have no stage).
struct ImportedEvents {
    private var events: [(rank: Int, event: ManifestEvent)] = []

    /// `identity` joins (`SEND_AND_RECV`) and is pinned at `join`, and leaves at `leave`.
    mutating func onStage(_ identity: String, from join: Int, to leave: Int) {
        events += [(0, .joined(join, identity)), (1, .pinned(join, identity)), (5, .left(leave, identity))]
    }

    /// Track `trackId` is published from `start` to `end`.
    mutating func published(_ trackId: String, from start: Int, to end: Int) {
        events += [(2, .published(start, trackId)), (4, .unpublished(end, trackId))]
    }

    mutating func muted(_ muted: Bool, _ trackId: String, at atMs: Int) {
        events.append((3, muted ? .muted(atMs, trackId) : .unmuted(atMs, trackId)))
    }

    /// In order, ending with `session.ended` at `end`.
    func ordered(endingAt end: Int) -> [ManifestEvent] {
        events.enumerated().sorted {
            ($0.element.event.atMs, $0.element.rank, $0.offset) < ($1.element.event.atMs, $1.element.rank, $1.offset)
        }.map(\.element.event) + [ManifestEvent(atMs: end, type: "session.ended")]
    }
}
