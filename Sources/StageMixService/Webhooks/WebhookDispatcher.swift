import AsyncHTTPClient
import Foundation
public import Logging
import NIOCore
import NIOHTTP1
public import ServiceLifecycle
public import StageMixQueue

/// Delivers the outbox: takes due events (locked for a while, so a dispatcher killed mid-delivery
/// leaves them to the next), POSTs each signed to its callback, and records the outcome. A 2xx answer
/// is delivery; anything else is tried again later (``WebhookRetry``). Any number of `serve`
/// processes may run one: the lock keeps an event to one of them at a time.
public final class WebhookDispatcher: Service, Sendable {
    let store: any SQLJobStore
    let keys: APIKeyStore
    let policy: CallbackPolicy
    let schedule: WebhookRetry
    let logger: Logger
    let owner = "dispatcher-\(getpid())-\(UUID().uuidString.prefix(8))"
    /// An event in hand is locked this long: longer than a delivery can take.
    static let lockSeconds = 15.0
    static let requestTimeout: TimeAmount = .seconds(10)

    public init(store: any SQLJobStore, keys: APIKeyStore, policy: CallbackPolicy, schedule: WebhookRetry, logger: Logger) {
        self.store = store
        self.keys = keys
        self.policy = policy
        self.schedule = schedule
        self.logger = logger
    }

    public func run() async throws {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(5), read: Self.requestTimeout))
        configuration.httpVersion = .http1Only
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let events: [WebhookEvent]
                do {
                    events = try await self.store.claimWebhooks(owner: self.owner, limit: 16, lockSeconds: Self.lockSeconds)
                } catch {
                    // Our own stop (SIGTERM cancels this loop) is no fault of the outbox's; any other failure is.
                    if Task.isCancelled { break }
                    self.logger.warning("cannot read the webhook outbox: \(String(reflecting: error))")
                    try? await Task.sleep(for: .seconds(1))
                    continue
                }
                if events.isEmpty {
                    try? await Task.sleep(for: .milliseconds(250))
                    continue
                }
                await withTaskGroup(of: Void.self) { group in
                    for event in events { group.addTask { await self.deliver(event, client: client) } }
                }
            }
        }
        try? await client.shutdown()
    }

    func deliver(_ event: WebhookEvent, client: HTTPClient) async {
        // Taken just after the claim: a second short of the lock's end, in this process's clock.
        let lockEnds = ContinuousClock.now + .seconds(Self.lockSeconds - 1)
        var logger = self.logger
        logger[metadataKey: "composition"] = "\(event.compositionID)"
        logger[metadataKey: "webhook"] = "\(event.id)"
        let outcome: String?
        if let url = URL(string: event.url), let refusal = policy.refusal(url) {
            outcome = "callback refused: \(refusal)"
        } else if let secret = keys.secret(for: event.apiKey) {
            outcome = await post(event, secret: secret, client: client)
        } else {
            outcome = "API key \(event.apiKey) is no longer in the keys file; cannot sign"
        }
        do {
            guard let failure = outcome else {
                try await recordDelivery(of: event, until: lockEnds)
                logger.info("webhook delivered", metadata: ["type": "\(event.type)", "attempt": "\(event.attempts + 1)"])
                return
            }
            let age = Date().timeIntervalSince1970 - event.createdAt
            let delay = schedule.delay(afterAttempts: event.attempts + 1, age: age)
            try await store.webhookFailed(id: event.id, owner: owner, error: failure, retryAfter: delay)
            if let delay {
                logger.notice("webhook not delivered, retrying in \(Int(delay.rounded())) s: \(failure)", metadata: ["type": "\(event.type)"])
            } else {
                logger.error("webhook given up after \(event.attempts + 1) attempts: \(failure)", metadata: ["type": "\(event.type)"])
            }
        } catch {
            // The lock runs out and the event is taken again: at least once, never lost.
            logger.warning("cannot record the webhook's delivery: \(String(reflecting: error))")
        }
    }

    /// The receiver has it: recorded, tried again while the queue's database does not answer (a restart),
    /// for as long as the event stays locked to this dispatcher, so that no dispatcher sends it again.
    func recordDelivery(of event: WebhookEvent, until deadline: ContinuousClock.Instant) async throws {
        while true {
            do {
                return try await store.webhookDelivered(id: event.id)
            } catch {
                if ContinuousClock.now >= deadline || Task.isCancelled { throw error }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// nil when delivered, else why not.
    private func post(_ event: WebhookEvent, secret: String, client: HTTPClient) async -> String? {
        var request: HTTPClientRequest
        switch event.delivery {
        case .standard:
            let timestamp = Int(Date().timeIntervalSince1970)
            request = HTTPClientRequest(url: event.url)
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "webhook-id", value: event.id)
            request.headers.add(name: "webhook-timestamp", value: "\(timestamp)")
            request.headers.add(name: "webhook-signature",
                                value: WebhookSignature.sign(id: event.id, timestamp: timestamp, body: event.body, secret: secret))
            request.body = .bytes(ByteBuffer(string: event.body))
        case .twilio(let method):
            // As Twilio sends a status callback: the parameters in a form body (POST) or the query (GET).
            let fields = FormFields(decoding: Substring(event.body)) ?? FormFields([])
            if method == "GET" {
                let url = event.url + (event.url.contains("?") ? "&" : "?") + event.body
                request = HTTPClientRequest(url: url)
                request.method = .GET
                request.headers.add(name: "x-twilio-signature", value: TwilioSignature.sign(url: url, parameters: [], secret: secret))
            } else {
                request = HTTPClientRequest(url: event.url)
                request.method = .POST
                request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
                request.headers.add(name: "x-twilio-signature", value: TwilioSignature.sign(url: event.url, parameters: fields.pairs, secret: secret))
                request.body = .bytes(ByteBuffer(string: event.body))
            }
            request.headers.add(name: "i-twilio-idempotency-token", value: event.id)
        }
        request.headers.add(name: "user-agent", value: "StageMix-Webhooks/1")
        do {
            let response = try await client.execute(request, timeout: Self.requestTimeout)
            _ = try? await response.body.collect(upTo: 64 << 10)
            return (200..<300).contains(response.status.code) ? nil : "the receiver answered \(response.status.code)"
        } catch {
            return "cannot reach the receiver: \(error)"
        }
    }
}
