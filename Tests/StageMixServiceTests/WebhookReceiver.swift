import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import StageMixService
import StageMixQueueTestSupport

/// A real webhook receiver on loopback (Hummingbird): checks each delivery's Standard Webhooks
/// signature and records it; it can be started late, to play a receiver that was down.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        var id: String
        var type: String
        var compositionID: String
        var signatureValid: Bool
        var progress: Double?
        /// The body as received.
        var body: String
    }

    let port: Int
    let secret: String
    private let deliveries = NIOLockedValueBox<[Delivery]>([])
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(port: Int, secret: String) {
        self.port = port
        self.secret = secret
    }

    var url: String { "http://127.0.0.1:\(port)/hooks" }
    var all: [Delivery] { deliveries.withLockedValue { $0 } }

    func start() async throws {
        let router = Router()
        router.post("/hooks") { request, context -> Response in
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: 1 << 20))
            let id = request.headers[values: .init("webhook-id")!].first ?? ""
            let timestamp = Int(request.headers[values: .init("webhook-timestamp")!].first ?? "") ?? 0
            let signature = request.headers[values: .init("webhook-signature")!].first ?? ""
            let valid = WebhookSignature.verify(header: signature, id: id, timestamp: timestamp, body: body, secret: self.secret)
                && abs(Double(timestamp) - Date().timeIntervalSince1970) < 300
            let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
            let data = json["data"] as? [String: Any] ?? [:]
            self.deliveries.withLockedValue {
                $0.append(Delivery(id: id, type: json["type"] as? String ?? "", compositionID: data["id"] as? String ?? "",
                                   signatureValid: valid, progress: data["progress"] as? Double, body: body))
            }
            return Response(status: .noContent)
        }
        var logger = Logger(label: "test.receiver")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        task.withLockedValue { $0 = Task { try? await app.runService(gracefulShutdownSignals: []) } }
        try await eventually(10, "the receiver listens") {
            (try? await run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(self.port)"])) != nil
        }
    }

    func stop() async {
        let running = task.withLockedValue { $0 }
        running?.cancel()
        await running?.value
    }

    /// The distinct events of a composition, in the order first received.
    func events(of compositionID: String) -> [Delivery] {
        var seen = Set<String>()
        return all.filter { $0.compositionID == compositionID && seen.insert($0.id).inserted }
    }
}
