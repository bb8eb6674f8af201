/// One event in the outbox: its stable id (the `webhook-id` a receiver drops duplicates by), the
/// exact body to sign and send, and where delivery stands.
public struct WebhookEvent: Sendable, Hashable {
    public var id: String
    public var compositionID: String
    /// 1, 2, 3... per composition: events of one composition are delivered in this order.
    public var sequence: Int
    /// `composition.queued`, `composition.started`, ...
    public var type: String
    public var body: String
    public var url: String
    /// Whose secret signs it.
    public var apiKey: String
    public var attempts: Int
    public var nextAttemptAt: Double
    public var deliveredAt: Double?
    /// Set when delivery was given up (after the retry window).
    public var abandonedAt: Double?
    public var lastError: String?
    public var createdAt: Double
    /// How it is sent.
    public var delivery: WebhookDelivery = .standard
}
