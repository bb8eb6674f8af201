/// One event of the capture contract, in its JSON shape: `atMs`, `type` and the members that
/// type has, as session.json holds it. Scenarios and importers write events with it, so the
/// format needs no second vocabulary; the capture reader checks them (``Capture/init(manifest:directory:)``).
public struct ManifestEvent: Sendable, Hashable, Codable {
    public var atMs: Int
    public var type: String
    public var participantId: String?
    public var mode: String?
    public var role: String?
    public var forced: Bool?
    public var trackId: String?
    public var state: String?
    public var allowed: Bool?
    public var topic: String?
    public var senderId: String?
    public var message: String?
    public var payload: [String: String]?

    public init(atMs: Int, type: String, participantId: String? = nil, mode: String? = nil, role: String? = nil,
                forced: Bool? = nil, trackId: String? = nil, state: String? = nil, allowed: Bool? = nil,
                topic: String? = nil, senderId: String? = nil, message: String? = nil, payload: [String: String]? = nil) {
        self.atMs = atMs
        self.type = type
        self.participantId = participantId
        self.mode = mode
        self.role = role
        self.forced = forced
        self.trackId = trackId
        self.state = state
        self.allowed = allowed
        self.topic = topic
        self.senderId = senderId
        self.message = message
        self.payload = payload
    }
}

extension ManifestEvent {
    public static func joined(_ atMs: Int, _ participantId: String, mode: String = "SEND_AND_RECV", role: String? = nil) -> Self {
        Self(atMs: atMs, type: "participant.joined", participantId: participantId, mode: mode, role: role)
    }
    public static func left(_ atMs: Int, _ participantId: String) -> Self {
        Self(atMs: atMs, type: "participant.left", participantId: participantId)
    }
    public static func modeChanged(_ atMs: Int, _ participantId: String, mode: String) -> Self {
        Self(atMs: atMs, type: "participant.mode_changed", participantId: participantId, mode: mode)
    }
    public static func pinned(_ atMs: Int, _ participantId: String) -> Self {
        Self(atMs: atMs, type: "participant.pinned", participantId: participantId)
    }
    public static func roleChanged(_ atMs: Int, _ participantId: String, role: String, forced: Bool) -> Self {
        Self(atMs: atMs, type: "participant.role_changed", participantId: participantId, role: role, forced: forced)
    }
    public static func published(_ atMs: Int, _ trackId: String) -> Self {
        Self(atMs: atMs, type: "track.published", trackId: trackId)
    }
    public static func unpublished(_ atMs: Int, _ trackId: String) -> Self {
        Self(atMs: atMs, type: "track.unpublished", trackId: trackId)
    }
    public static func muted(_ atMs: Int, _ trackId: String) -> Self {
        Self(atMs: atMs, type: "track.muted", trackId: trackId)
    }
    public static func unmuted(_ atMs: Int, _ trackId: String) -> Self {
        Self(atMs: atMs, type: "track.unmuted", trackId: trackId)
    }
    public static func streamState(_ atMs: Int, _ trackId: String, _ state: String) -> Self {
        Self(atMs: atMs, type: "track.stream_state", trackId: trackId, state: state)
    }
    /// The invitee's answer, `ACCEPTED` or `DECLINED`, sent back to the host `receiverId`.
    public static func ack(_ atMs: Int, from senderId: String, to receiverId: String, _ answer: String) -> Self {
        Self(atMs: atMs, type: "pubsub.message", topic: "ACK", senderId: senderId, message: answer,
             payload: ["receiverId": receiverId])
    }
}
