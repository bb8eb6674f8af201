/// One entry of `events`: something that happened at `atMs` on the session clock.
public struct SessionEvent: Sendable, Hashable {
    public var atMs: Int
    public var action: Action
    public init(atMs: Int, _ action: Action) { self.atMs = atMs; self.action = action }

    /// Whether a video stream is flowing.
    public enum StreamState: String, Sendable, Hashable, Codable { case active, paused }

    /// What happened. Mirrors the contract's event types one for one.
    public enum Action: Sendable, Hashable {
        case participantJoined(participantId: String, mode: ParticipantMode, role: String?)
        case participantLeft(participantId: String)
        case modeChanged(participantId: String, mode: ParticipantMode)
        case pinned(participantId: String)
        case unpinned(participantId: String)
        case roleChanged(participantId: String, role: String, forced: Bool)
        case trackPublished(trackId: String)
        case trackUnpublished(trackId: String)
        case trackMuted(trackId: String)
        case trackUnmuted(trackId: String)
        case streamState(trackId: String, state: StreamState)
        case subscriptionPermission(trackId: String, allowed: Bool)
        case pubsub(PubSubMessage)
        case sessionEnded
    }
}

/// A `pubsub.message` event: how stage invitations travel.
public struct PubSubMessage: Sendable, Hashable {
    public var topic: String
    public var senderId: String
    public var message: String?
    /// String-valued payload fields (`receiverId`, `senderId`, `senderName`, ...); other values are kept as their JSON text.
    public var payload: [String: String]
    public init(topic: String, senderId: String, message: String? = nil, payload: [String: String] = [:]) {
        self.topic = topic; self.senderId = senderId; self.message = message; self.payload = payload
    }
}
