/// Something that happened to the stage, for viewers to jump to: a participant came on stage or
/// left it, was pinned while on stage, started or stopped sharing their screen, or accepted a host's
/// invitation. Written into the output as HLS `EXT-X-DATERANGE` tags and MP4 chapters.
public struct StageEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case joinedStage = "joined-stage"
        case leftStage = "left-stage"
        case pinned
        case screenShareStarted = "screen-share-started"
        case screenShareStopped = "screen-share-stopped"
        case invitationAccepted = "invitation-accepted"
    }

    public var atMs: Int
    public var kind: Kind
    public var participantId: String
    public var name: String
    /// Why someone still on stage stopped being shown (a forced role change that takes their
    /// publishing away): `role viewer may not publish`. Nil for an ordinary join or leave.
    public var reason: String?

    public init(atMs: Int, kind: Kind, participantId: String, name: String, reason: String? = nil) {
        self.atMs = atMs
        self.kind = kind
        self.participantId = participantId
        self.name = name
        self.reason = reason
    }

    /// A chapter title: "Omar joined the stage".
    public var title: String {
        switch kind {
        case .joinedStage: "\(name) joined the stage"
        case .leftStage: "\(name) left the stage" + (reason.map { " (\($0))" } ?? "")
        case .pinned: "\(name) was pinned"
        case .screenShareStarted: "\(name) started sharing their screen"
        case .screenShareStopped: "\(name) stopped sharing their screen"
        case .invitationAccepted: "\(name) accepted an invitation to the stage"
        }
    }

    /// The events of a timeline, in time order (at one instant: stage changes in segment order, then
    /// invitations). Nothing at the very end of the session: a leave there is the end of the recording.
    public static func of(_ timeline: StageTimeline) -> [StageEvent] {
        var events: [StageEvent] = []
        var before: [String: OnStageParticipant] = [:]
        var beforeInOrder: [OnStageParticipant] = []
        var names: [String: String] = [:]
        for segment in timeline.segments {
            // Who the video shows: on stage with a tile. Someone on stage whose every track was taken
            // away (a forced role change) leaves the picture, and comes back when they have one again.
            let shown = segment.onStage.filter(\.hasTile)
            let hidden = Dictionary(segment.onStage.filter { !$0.hasTile }.map { ($0.participantId, $0) }, uniquingKeysWith: { a, _ in a })
            let now = Dictionary(shown.map { ($0.participantId, $0) }, uniquingKeysWith: { a, _ in a })
            for person in segment.onStage { names[person.participantId] = person.name }
            let at = segment.startMs
            for person in shown {
                guard let earlier = before[person.participantId] else {
                    events.append(StageEvent(atMs: at, kind: .joinedStage, participantId: person.participantId, name: person.name))
                    if person.track(source: .screenShare) != nil {
                        events.append(StageEvent(atMs: at, kind: .screenShareStarted, participantId: person.participantId, name: person.name))
                    }
                    continue
                }
                if person.pinnedAtMs != earlier.pinnedAtMs && person.pinnedAtMs > earlier.pinnedAtMs {
                    events.append(StageEvent(atMs: max(at, min(person.pinnedAtMs, segment.endMs)), kind: .pinned,
                                             participantId: person.participantId, name: person.name))
                }
                let sharing = person.track(source: .screenShare) != nil, shared = earlier.track(source: .screenShare) != nil
                if sharing != shared {
                    events.append(StageEvent(atMs: at, kind: sharing ? .screenShareStarted : .screenShareStopped,
                                             participantId: person.participantId, name: person.name))
                }
            }
            // In stage order, not the dictionary's (which differs between runs).
            for earlier in beforeInOrder where now[earlier.participantId] == nil {
                let id = earlier.participantId
                if earlier.track(source: .screenShare) != nil {
                    events.append(StageEvent(atMs: at, kind: .screenShareStopped, participantId: id, name: earlier.name))
                }
                events.append(StageEvent(atMs: at, kind: .leftStage, participantId: id, name: earlier.name,
                                         reason: hidden[id]?.notShown))
            }
            before = now
            beforeInOrder = shown
        }
        let edits = SessionEditIndex(timeline.edits ?? .none)
        for invitation in timeline.invitations where invitation.outcome == .accepted && invitation.resolvedInCut != true {
            guard let at = invitation.resolvedAtMs, (0..<timeline.durationMs).contains(at) else { continue }
            // Someone left out by an edit is not named in the stream at that time either (edits count session time).
            let sessionAt = timeline.output?.sessionMs(outputMs: at) ?? at
            if edits.excludes(invitation.receiverId, atMs: sessionAt) { continue }
            events.append(StageEvent(atMs: at, kind: .invitationAccepted, participantId: invitation.receiverId,
                                     name: names[invitation.receiverId] ?? invitation.receiverId))
        }
        return events.enumerated()
            .filter { $0.element.atMs < timeline.durationMs }
            .sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }
            .map(\.element)
    }
}
