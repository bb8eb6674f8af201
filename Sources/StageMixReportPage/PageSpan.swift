/// One span drawn on a participant's lane: what it is, `[fromMs, toMs)` in session time, where the
/// video shows its start (output time, for seeking), and its words for hover and screen readers.
public struct PageSpan: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case onstage, notshown, muted, paused, speaking, screenshare, excluded, lost, layer
    }
    public var participantId: String
    public var kind: Kind
    public var fromMs: Int
    public var toMs: Int
    /// The output instant the span starts at (equal to `fromMs` unless edits took time out).
    public var outputMs: Int
    public var label: String

    public init(participantId: String, kind: Kind, fromMs: Int, toMs: Int, outputMs: Int, label: String) {
        self.participantId = participantId
        self.kind = kind
        self.fromMs = fromMs
        self.toMs = toMs
        self.outputMs = outputMs
        self.label = label
    }
}
