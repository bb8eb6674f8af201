import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Webhooks from the outbox: every event reaches a receiver that was down at first, each id once and
/// in order, and an event written just before a SIGKILL of the service is delivered after a restart.
@Suite("Service webhooks", .serialized)
struct ServiceWebhookTests {
    @Test(arguments: QueueBackend.allCases)
    func aReceiverDownAtFirstGetsEveryEventOnce(backend: QueueBackend) async throws {
        // On PostgreSQL the composing is done by a separate `stagemix worker`, as on many machines.
        let service = try await ServiceFixture(backend: backend, workers: backend == .sqlite ? 1 : 0)
        defer { Task { await service.stop() } }
        var worker: RunningProcess?
        if backend == .postgres {
            let workers = WorkerProcesses(directory: service.directory, queueURL: service.queueURL, composeScript: service.composeScript)
            worker = try workers.start(name: "pg-worker")
        }
        defer { if let worker { Task { await worker.stop() } } }
        // Progress in jumps of 20 %: every 10 % step is still told.
        try service.addCapture("slow", behaviour: "steps=5; delay=0.8")
        try service.addCapture("bad", behaviour: "code=65")
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        let token = try await ServiceFixture.token()
        var ids: [String] = []
        for capture in ["slow", "bad"] {
            let reply = try await service.request("POST", "/v1/compositions", token: token,
                                                  body: #"{"capture": "\#(capture)", "callbackUrl": "\#(receiver.url)"}"#)
            #expect(reply.status == 201, "\(reply.body)")
            ids.append(reply.json["id"] as? String ?? "")
        }
        let composing = try await service.waitFor(ids[0], status: "composing", seconds: 30)
        #expect(composing["progress"] != nil)
        let completed = try await service.waitFor(ids[0], status: "completed", seconds: 60)
        #expect(completed["outputs"] != nil)
        let failed = try await service.waitFor(ids[1], status: "failed", seconds: 60)
        #expect((failed["error"] as? [String: Any])?["retryable"] as? Bool == false, "\(failed)")

        // Everything happened while the receiver was down; it comes up now.
        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        let undelivered = try await queue.webhooks(compositionID: ids[0])
        #expect(undelivered.allSatisfy { $0.deliveredAt == nil } && undelivered.contains { $0.attempts >= 1 })
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await eventually(60, "every event delivered") {
            let first = try await queue.webhooks(compositionID: ids[0])
            let second = try await queue.webhooks(compositionID: ids[1])
            return (first + second).allSatisfy { $0.deliveredAt != nil }
        }
        let slow = receiver.events(of: ids[0])
        let types = slow.map(\.type)
        #expect(types.first == "composition.queued")
        #expect(types.dropFirst().first == "composition.started")
        #expect(types.last == "composition.completed")
        let progress = slow.filter { $0.type == "composition.progress" }.compactMap(\.progress)
        #expect(progress == [10, 20, 30, 40, 50, 60, 70, 80, 90], "\(progress)")
        // The refused capture may show progress before compose exits 65; it ends failed.
        let refused = receiver.events(of: ids[1]).map(\.type)
        #expect(Array(refused.prefix(2)) == ["composition.queued", "composition.started"] && refused.last == "composition.failed", "\(refused)")
        #expect(refused.dropFirst(2).dropLast().allSatisfy { $0 == "composition.progress" }, "\(refused)")
        // Each event id once in the outbox's order, every signature right, nothing else delivered.
        let stored = try await queue.webhooks(compositionID: ids[0])
        #expect(slow.map(\.id) == stored.map(\.id))
        #expect(receiver.all.allSatisfy { $0.signatureValid })
        let storedRefused = try await queue.webhooks(compositionID: ids[1])
        #expect(Set(receiver.all.map(\.id)) == Set((stored + storedRefused).map(\.id)))
        await queue.close()
    }

    @Test func anEventWrittenBeforeASigkillIsDeliveredAfterTheRestart() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        let token = try await ServiceFixture.token()
        let created = try await service.request("POST", "/v1/compositions", token: token,
                                                body: #"{"capture": "panel", "callbackUrl": "\#(receiver.url)"}"#)
        let id = created.json["id"] as? String ?? ""
        // The state change (cancel) commits with its event; the service dies before it can deliver it.
        let cancelled = try await service.request("DELETE", "/v1/compositions/\(id)", token: token)
        #expect(cancelled.status == 200)
        service.process?.send(SIGKILL)
        try await service.process?.waitForExit(seconds: 10)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await service.start()
        try await eventually(60, "both events after the restart") {
            receiver.events(of: id).map(\.type) == ["composition.queued", "composition.cancelled"]
        }
        #expect(receiver.all.allSatisfy { $0.signatureValid })
        #expect(try await service.composition(id)["status"] as? String == "cancelled")
    }
}
