/// One event Janus's event handler posted, as the service keeps it for a room: what it means to the
/// room (``Kind``), who it is about, and its text (kept as posted, for the importer; its SHA-256 is
/// what makes a retransmission count once).
public struct JanusRoomEvent: Sendable, Hashable {
    /// What an event does to a room.
    public enum Kind: String, Sendable, Hashable {
        /// A publisher joined (`joined`): present, its handle now known.
        case joined
        /// A publisher's media started (`published`).
        case published
        /// A publisher's media stopped (`unpublished`).
        case unpublished
        /// A publisher left or was kicked out (`leaving`, `kicked`).
        case left
        /// The room is gone (`destroyed`).
        case destroyed
        /// A handle's PeerConnection closed (type 16 `hangup`): its publisher's media stopped.
        case hangup
        /// Anything else kept for the importer (type 32 media, `configured`, `talking`...).
        case other
    }

    public var kind: Kind
    /// Janus's `emitter` (its `server_name`): rooms of two Janus servers never mix.
    public var emitter: String
    /// The VideoRoom's room, as text; nil for a handle's event (types 16 and 32), found through the handle.
    public var room: String?
    /// The publisher's id in the room (`data.id`), if the event names one.
    public var publisher: String?
    public var handle: String?
    /// Janus's `timestamp`, microseconds of real time.
    public var timestampUs: Int64
    /// The event's JSON.
    public var text: String
    /// SHA-256 of `text`, hex.
    public var digest: String

    public init(kind: Kind, emitter: String, room: String?, publisher: String?, handle: String?, timestampUs: Int64, text: String) {
        self.kind = kind
        self.emitter = emitter
        self.room = room
        self.publisher = publisher
        self.handle = handle
        self.timestampUs = timestampUs
        self.text = text
        digest = SHA256Digest.hex(of: Array(text.utf8))
    }

    /// Only a join or a publish starts a room; anything else about a room with nothing open is a
    /// straggler of one that already ended (Janus's second `unpublished`, a late `hangup`).
    var opensRoom: Bool { kind == .joined || kind == .published }
}
