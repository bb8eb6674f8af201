import StageMixJSON
/// The checks on `events` that need the whole sequence: order by `atMs`, one final
/// `session.ended`, references to known participants, tracks and roles, and the session's
/// state (nobody acts before joining or after leaving; a track is published once at a time).
struct EventSequenceValidator {
    let roles: [String: Role]?
    /// `nil` when `participants` is broken: references to participants are then not checked.
    let participantIds: Set<String>?
    /// Track id -> its participant, `nil` when the track's participant is itself broken.
    /// The whole map is `nil` when `tracks` is broken: references to tracks are then not checked.
    let trackOwners: [String: String?]?

    /// Participant id -> index of the event that joined them, while they are in the session.
    private var joinedAt: [String: Int] = [:]
    /// Participant id -> index of the event at which they last left.
    private var leftAt: [String: Int] = [:]
    /// Track id -> index of the event that published it, while it is published.
    private var publishedAt: [String: Int] = [:]
    /// Track id -> index of the event at which it last stopped (unpublished, or its participant left).
    private var endedAt: [String: Int] = [:]
    /// Track id -> the join event of the membership it was first published in.
    private var membershipOf: [String: Int] = [:]
    /// Participant id -> their tracks that are published, so leaving costs only what it ends.
    private var publishedBy: [String: Set<String>] = [:]
    private var census = StageCensus()
    /// A capture in progress (with `recording`): no `session.ended` yet, and none allowed.
    var inProgress = false

    init(roles: [String: Role]?, participantIds: Set<String>?, trackOwners: [String: String?]?) {
        self.roles = roles
        self.participantIds = participantIds
        self.trackOwners = trackOwners
    }

    mutating func validate(_ records: [EventRecord], eventsPath: JSONPath, into walker: inout JSONWalker) {
        checkOrder(records, eventsPath: eventsPath, into: &walker)
        checkSessionEnded(records, eventsPath: eventsPath, into: &walker)
        for record in records {
            if let action = record.event?.action {
                apply(action, at: record.index, path: eventsPath.index(record.index), into: &walker)
            } else if let standIn = record.standIn {
                // The event's own problems are already reported; only its effect on the state matters.
                // A fresh walker, not a copy of the real one, so discarding costs nothing however many problems there are.
                var discarded = JSONWalker(file: walker.file)
                apply(standIn, at: record.index, path: eventsPath.index(record.index), into: &discarded)
            }
        }
    }

    // MARK: Sequence shape

    private func checkOrder(_ records: [EventRecord], eventsPath: JSONPath, into walker: inout JSONWalker) {
        var latest: (atMs: Int, index: Int)?
        for record in records {
            guard let atMs = record.atMs else { continue }
            if let latest, atMs < latest.atMs {
                walker.problem(eventsPath.index(record.index).key("atMs"),
                               expected: "at least \(latest.atMs), the atMs of events[\(latest.index)] (events are ordered by atMs)",
                               found: "\(atMs)")
            } else {
                latest = (atMs, record.index)
            }
        }
    }

    private func checkSessionEnded(_ records: [EventRecord], eventsPath: JSONPath, into walker: inout JSONWalker) {
        let ends = records.filter { $0.type == "session.ended" }.map(\.index)
        if inProgress {
            if let first = ends.first {
                walker.problem(JSONPath.root.key("recording"), expected: "no \"recording\" member once the session has ended",
                               found: "\"session.ended\" at events[\(first)] as well")
            }
            return
        }
        guard let first = ends.first else {
            walker.problem(eventsPath, expected: "exactly one \"session.ended\" event, as the last event",
                           found: records.isEmpty ? "no events" : "no \"session.ended\" among \(records.count) events")
            return
        }
        for extra in ends.dropFirst() {
            walker.problem(eventsPath.index(extra).key("type"), expected: "exactly one \"session.ended\" event",
                           found: "another \"session.ended\" (the first is events[\(first)])")
        }
        if records.last?.type != "session.ended" {
            let after = records.count - 1 - first
            walker.problem(eventsPath.index(first).key("type"), expected: "\"session.ended\" to be the last event",
                           found: "\(after) event\(after == 1 ? "" : "s") after it")
        }
    }

    // MARK: References and session state

    private mutating func apply(_ action: SessionEvent.Action, at index: Int, path: JSONPath, into walker: inout JSONWalker) {
        switch action {
        case .participantJoined(let id, _, let role):
            guard knownParticipant(id, path: path.key("participantId"), into: &walker) else { break }
            checkRole(role, path: path.key("role"), into: &walker)
            if let joined = joinedAt[id] {
                walker.problem(path.key("participantId"), expected: "a participant who is not in the session",
                               found: "\"\(id)\", who joined at events[\(joined)] and has not left")
            } else {
                joinedAt[id] = index
                count(action, at: path, into: &walker)
            }
        case .participantLeft(let id):
            guard present(id, path: path.key("participantId"), into: &walker) else { break }
            count(action, at: path, into: &walker)
            joinedAt[id] = nil
            leftAt[id] = index
            // Their tracks end with them.
            for trackId in publishedBy.removeValue(forKey: id) ?? [] {
                publishedAt[trackId] = nil
                endedAt[trackId] = index
            }
        case .modeChanged(let id, _), .pinned(let id), .unpinned(let id):
            if present(id, path: path.key("participantId"), into: &walker) { count(action, at: path, into: &walker) }
        case .roleChanged(let id, let role, _):
            if present(id, path: path.key("participantId"), into: &walker) {
                checkRole(role, path: path.key("role"), into: &walker)
            }
        case .trackPublished(let id):
            guard let owner = ownerPresent(id, path: path.key("trackId"), into: &walker) else { break }
            let membership = joinedAt[owner]!
            if let published = publishedAt[id] {
                walker.problem(path.key("trackId"), expected: "a track that is not published (unpublish it first)",
                               found: "\"\(id)\", published at events[\(published)]")
            } else if let earlier = membershipOf[id], earlier != membership {
                walker.problem(path.key("trackId"),
                               expected: "a track id not used before \"\(owner)\" rejoined (a new membership has new track ids)",
                               found: "\"\(id)\", published in the membership that began at events[\(earlier)]")
            } else {
                publishedAt[id] = index
                membershipOf[id] = membership
                publishedBy[owner, default: []].insert(id)
                let published = publishedBy[owner]?.count ?? 0
                if published > CaptureLimits.maxPublishedTracksPerParticipant {
                    walker.problem(path.key("trackId"),
                                   expected: "at most \(CaptureLimits.maxPublishedTracksPerParticipant) tracks published at once by one participant (docs/limits.md)",
                                   found: "\"\(id)\", the \(published)th published by \"\(owner)\"")
                }
            }
        case .trackUnpublished(let id), .trackMuted(let id), .trackUnmuted(let id),
             .streamState(let id, _), .subscriptionPermission(let id, _):
            guard ownerPresent(id, path: path.key("trackId"), into: &walker) != nil else { break }
            if publishedAt[id] == nil {
                walker.problem(path.key("trackId"), expected: "a published track",
                               found: "\"\(id)\", " + (endedAt[id].map { "not published since events[\($0)]" } ?? "not published yet"))
            }
            if case .trackUnpublished = action {
                publishedAt[id] = nil
                endedAt[id] = index
                if let owner = trackOwners?[id] ?? nil { publishedBy[owner]?.remove(id) }
            }
        case .pubsub(let message):
            _ = knownParticipant(message.senderId, path: path.key("senderId"), into: &walker)
        case .sessionEnded:
            break
        }
    }

    /// Follows who is on stage, and reports the event that puts one more on it than the limit.
    private mutating func count(_ action: SessionEvent.Action, at path: JSONPath, into walker: inout JSONWalker) {
        guard census.apply(action), census.onStage > CaptureLimits.maxOnStage else { return }
        walker.problem(path, expected: "at most \(CaptureLimits.maxOnStage) participants on stage at once (docs/limits.md)",
                       found: "an event that puts \(census.onStage) on stage")
    }

    private func knownParticipant(_ id: String, path: JSONPath, into walker: inout JSONWalker) -> Bool {
        guard let participantIds else { return false }
        if participantIds.contains(id) { return true }
        walker.problem(path, expected: "the id of a participant in $.participants", found: "\"\(id)\", which is not one")
        return false
    }

    /// Whether a known participant is in the session (joined and not left).
    private func present(_ id: String, path: JSONPath, into walker: inout JSONWalker) -> Bool {
        guard knownParticipant(id, path: path, into: &walker) else { return false }
        if joinedAt[id] != nil { return true }
        walker.problem(path, expected: "a participant who is in the session (joined and not left)", found: absence(of: id))
        return false
    }

    /// The track's participant, when the track is known and its participant is in the session.
    /// A track whose participant is broken was reported with $.tracks and is not checked further.
    private func ownerPresent(_ id: String, path: JSONPath, into walker: inout JSONWalker) -> String? {
        guard let trackOwners else { return nil }
        guard let owner = trackOwners[id] else {
            walker.problem(path, expected: "the id of a track in $.tracks", found: "\"\(id)\", which is not one")
            return nil
        }
        guard let owner else { return nil }
        if joinedAt[owner] != nil { return owner }
        walker.problem(path, expected: "a track whose participant is in the session (joined and not left)",
                       found: "\"\(id)\" of " + absence(of: owner))
        return nil
    }

    private func absence(of id: String) -> String {
        leftAt[id].map { "\"\(id)\", who left at events[\($0)]" } ?? "\"\(id)\", who has not joined"
    }

    private func checkRole(_ role: String?, path: JSONPath, into walker: inout JSONWalker) {
        guard let roles else { return }
        // Only built for a report: sorting every role name for every event would cost more than the events.
        var names: String { roles.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ") }
        guard let role else {
            walker.problem(path, expected: "a role, because the capture defines roles (\(names))", found: "nothing (the member is missing)")
            return
        }
        if roles[role] == nil {
            walker.problem(path, expected: "one of the roles in $.roles (\(names))", found: "\"\(role)\", which is not one")
        }
    }
}
