/// One thing the layout can place: a participant's camera tile (shown even when
/// it carries only a placeholder) or their screen share.
public struct LayoutSource: Sendable, Hashable, Codable, CustomStringConvertible {
    public var participantId: String
    public var kind: SourceKind
    /// When the participant was pinned, on the session clock.
    public var pinnedAtMs: Int
    /// The participant's position on stage (e.g. join order); ties in pin time break on it.
    public var stageOrder: Int

    public init(participantId: String, kind: SourceKind = .camera, pinnedAtMs: Int, stageOrder: Int) {
        self.participantId = participantId
        self.kind = kind
        self.pinnedAtMs = pinnedAtMs
        self.stageOrder = stageOrder
    }

    public var description: String { "\(participantId)/\(kind.rawValue)" }
}
