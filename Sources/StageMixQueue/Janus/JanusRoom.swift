/// A Janus room as the queue's database holds it: from its first join to its end, and what was made
/// of it once it ended.
public struct JanusRoom: Sendable, Hashable {
    public var id: String
    /// The API key whose credentials Janus posted the events with: the composition's owner.
    public var apiKey: String
    public var emitter: String
    /// The VideoRoom's room id, as text.
    public var room: String
    public var openedAt: Double
    /// Janus's timestamp of the room's first kept event, microseconds.
    public var firstEventUs: Int64
    public var eventCount: Int
    public var state: JanusRoomState
    /// When it was found ended and claimed.
    public var endedAt: Double?
    /// When it was handled: imported and queued, or found to have nothing to compose.
    public var doneAt: Double?
    /// What became of it (`composed`, `no-media`, `no-recordings`, `failed: ...`).
    public var outcome: String?
    public var compositionID: String?
}

/// What one POST of Janus's events came to.
public struct JanusIntake: Sendable, Hashable, Codable {
    /// Events kept for their room.
    public var kept = 0
    /// Events kept before (a retransmission).
    public var duplicates = 0
    /// Events of no room in progress (stragglers after a room ended, handles of no known publisher).
    public var unmatched = 0

    public init() {}
}
