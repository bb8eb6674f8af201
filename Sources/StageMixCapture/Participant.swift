/// Someone in the session: a host, co-host or viewer.
public struct Participant: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public init(id: String, name: String) { self.id = id; self.name = name }
}

/// What a participant does in the session: publish media, or only signal (watch).
public enum ParticipantMode: String, Sendable, Hashable, Codable {
    case sendAndReceive = "SEND_AND_RECV"
    case signallingOnly = "SIGNALLING_ONLY"

    /// Accepts the deprecated `CONFERENCE`/`VIEWER` spellings; `deprecated` tells the caller to warn.
    public static func parse(_ text: String) -> (mode: ParticipantMode, deprecated: Bool)? {
        switch text {
        case "SEND_AND_RECV": return (.sendAndReceive, false)
        case "SIGNALLING_ONLY": return (.signallingOnly, false)
        case "CONFERENCE": return (.sendAndReceive, true)
        case "VIEWER": return (.signallingOnly, true)
        default: return nil
        }
    }
}
