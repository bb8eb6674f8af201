/// How an event of the outbox is sent: as a Standard Webhooks JSON POST (the JSON API's callbacks), or
/// as Twilio sends a status callback (form-encoded parameters, `POST` in the body or `GET` in the query,
/// signed with `X-Twilio-Signature`). Stored in `stagemix_webhooks.delivery`: NULL, `twilio POST`, `twilio GET`.
public enum WebhookDelivery: Sendable, Hashable {
    case standard
    case twilio(method: String)

    init(stored: String?) {
        guard let stored, stored.hasPrefix("twilio ") else { self = .standard; return }
        self = .twilio(method: String(stored.dropFirst("twilio ".count)))
    }

    var stored: String? {
        switch self {
        case .standard: nil
        case .twilio(let method): "twilio \(method)"
        }
    }
}
