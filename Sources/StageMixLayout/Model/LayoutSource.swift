/// One thing the layout can place: a participant's camera tile (shown even when
/// it carries only a placeholder) or their screen share.
public struct LayoutSource: Sendable, Hashable, Codable, CustomStringConvertible {
    public var participantId: String
    public var kind: SourceKind
    /// When the participant was pinned, on the session clock.
    public var pinnedAtMs: Int
    /// The participant's position on stage (e.g. join order); ties in pin time break on it.
    public var stageOrder: Int
    /// The active speaker's camera: first in a layout whose focus is the speaker.
    public var speaking: Bool

    public init(participantId: String, kind: SourceKind = .camera, pinnedAtMs: Int, stageOrder: Int, speaking: Bool = false) {
        self.participantId = participantId
        self.kind = kind
        self.pinnedAtMs = pinnedAtMs
        self.stageOrder = stageOrder
        self.speaking = speaking
    }

    public var description: String { "\(participantId)/\(kind.rawValue)" }
}
