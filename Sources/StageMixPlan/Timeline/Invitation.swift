/// A stage invitation: a host's `HOSTREQUESTED` to a viewer and what became of it.
public struct Invitation: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Hashable, Codable { case requested, accepted, declined, expired }

    public var requestedAtMs: Int
    /// The host who invited.
    public var senderId: String
    public var senderName: String?
    /// The viewer invited.
    public var receiverId: String
    public var outcome: Outcome
    /// When the viewer answered, or when the invitation expired.
    public var resolvedAtMs: Int?
    /// Why it expired, or an answer that came too late.
    public var note: String?
    /// True when it was answered (or expired) in a stretch that edits removed from the output; its
    /// times are then where the output resumes. Nil otherwise.
    public var resolvedInCut: Bool?

    /// How long a viewer has to answer.
    public static let answerWindowMs = 60_000
}
