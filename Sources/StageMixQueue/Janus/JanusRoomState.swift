/// Whether a Janus room is still going, from its events as they arrive: who is in it, who publishes,
/// whether it ever had media, since when it has been idle, whether it was destroyed. A value, so the
/// rules are tested without a database; the store keeps it in the room's row.
///
/// A room that had media is idle while nobody publishes (its last publisher gone); one that never had
/// media, while nobody is in it (so a participant who joins and waits keeps it open). It ends when it
/// has been idle for the configured time, or at once when destroyed.
public struct JanusRoomState: Sendable, Hashable {
    public var present: Set<String> = []
    public var publishing: Set<String> = []
    public var hadMedia = false
    /// The queue's clock when the room last became idle; nil while it is not.
    public var idleSince: Double?
    public var destroyedAt: Double?

    public init() {}

    /// `publisher` is the event's own, or for a hangup the publisher of its handle.
    public mutating func apply(_ kind: JanusRoomEvent.Kind, publisher: String?, now: Double) {
        switch (kind, publisher) {
        case (.joined, let id?):
            present.insert(id)
        case (.published, let id?):
            present.insert(id)
            publishing.insert(id)
            hadMedia = true
        case (.unpublished, let id?), (.hangup, let id?):
            publishing.remove(id)
        case (.left, let id?):
            publishing.remove(id)
            present.remove(id)
        case (.destroyed, _):
            if destroyedAt == nil { destroyedAt = now }
        default:
            break
        }
        let idle = hadMedia ? publishing.isEmpty : present.isEmpty
        if !idle {
            idleSince = nil
        } else if idleSince == nil {
            idleSince = now
        }
    }

    /// Whether the room has ended at `now`, given `idleSeconds`.
    public func hasEnded(now: Double, idleSeconds: Double) -> Bool {
        destroyedAt != nil || idleSince.map { now - $0 >= idleSeconds } == true
    }

    /// The sets as stored: ids sorted, comma-separated (Janus's ids are numbers or strings without commas
    /// in practice; a comma is escaped).
    static func column(_ ids: Set<String>) -> String {
        ids.sorted().map { $0.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ",", with: "%2C") }.joined(separator: ",")
    }

    static func ids(_ column: String?) -> Set<String> {
        guard let column, !column.isEmpty else { return [] }
        return Set(column.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "%2C", with: ",").replacingOccurrences(of: "%25", with: "%")
        })
    }
}
