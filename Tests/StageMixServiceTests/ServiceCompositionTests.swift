import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Compositions over the API on both real databases: one job per request however many arrive at
/// once, paging, cancelling, and a real compose end to end.
@Suite("Service compositions", .serialized)
struct ServiceCompositionTests {
    @Test(arguments: QueueBackend.allCases)
    func aHundredConcurrentIdenticalPostsMakeOneJob(backend: QueueBackend) async throws {
        let service = try await ServiceFixture(backend: backend, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let token = try await ServiceFixture.token()
        // No idempotency key: the same normalised request is the same composition (option order and case do not matter).
        let bodies = [
            #"{"capture": "panel", "layout": "grid", "options": {"preset": "FAST", "fps": 25}}"#,
            #"{"options": {"fps": 25, "preset": "fast"}, "capture": "./panel"}"#,
        ]
        let replies = try await withThrowingTaskGroup(of: ServiceFixture.Reply.self) { group in
            for i in 0..<100 {
                group.addTask { try await service.request("POST", "/v1/compositions", token: token, body: bodies[i % 2]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.allSatisfy { $0.status == 201 || $0.status == 200 }, "\(replies.filter { $0.status >= 300 }.map { "\($0.status) \($0.body)" }.prefix(3))")
        #expect(replies.filter { $0.status == 201 }.count == 1)
        #expect(Set(replies.compactMap { $0.json["id"] as? String }).count == 1)
        let queue = try await QueueURL(service.queueURL).open()
        #expect(try await queue.list(limit: 1000).count == 1)

        // An idempotency key makes its own composition, once; reused with another request it is refused.
        let keyed = #"{"capture": "panel", "idempotencyKey": "stream-42-end"}"#
        let keyedReplies = try await withThrowingTaskGroup(of: ServiceFixture.Reply.self) { group in
            for _ in 0..<20 { group.addTask { try await service.request("POST", "/v1/compositions", token: token, body: keyed) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(keyedReplies.filter { $0.status == 201 }.count == 1)
        #expect(Set(keyedReplies.compactMap { $0.json["id"] as? String }).count == 1)
        let reused = try await service.request("POST", "/v1/compositions", token: token,
                                               body: #"{"capture": "panel", "layout": "pip", "idempotencyKey": "stream-42-end"}"#)
        #expect(reused.status == 422 && reused.json["field"] as? String == "idempotencyKey", "\(reused.body)")
        // The reason does not repeat the field: a client printing "field: reason" reads it once.
        let reason = (reused.json["invalidParams"] as? [[String: Any]])?.first?["reason"] as? String
        #expect(reason?.hasPrefix("this key already made composition") == true, "\(reused.body)")
        // The same request from another API key is that key's own composition.
        let other = try await ServiceFixture.token(key: ServiceFixture.otherKey, secret: ServiceFixture.otherSecret)
        #expect(try await service.request("POST", "/v1/compositions", token: other, body: keyed).status == 201)
        #expect(try await queue.list(limit: 1000).count == 3)
        // Inline edits: the same document twice is one composition, and the job's copy is kept.
        let edited = #"{"capture": "panel", "options": {"edits": {"cut": [{"from": 10, "to": 12}]}}}"#
        let first = try await service.request("POST", "/v1/compositions", token: token, body: edited)
        let again = try await service.request("POST", "/v1/compositions", token: token, body: edited)
        #expect(first.status == 201 && again.status == 200, "\(first.body) \(again.body)")
        #expect(first.json["id"] as? String == again.json["id"] as? String)
        let inputs = URL(fileURLWithPath: service.outputRoot).appendingPathComponent(".stagemix-inputs")
        let kept = try FileManager.default.contentsOfDirectory(atPath: inputs.path)
        #expect(kept.filter { !$0.hasPrefix(".") }.count == 1 && kept.allSatisfy { !$0.hasPrefix(".") }, "\(kept)")
        #expect(try String(contentsOf: inputs.appendingPathComponent(kept[0]), encoding: .utf8).contains("\"cut\""))
        await queue.close()
    }

    @Test func pagesFiltersAndCancels() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let token = try await ServiceFixture.token()
        var ids: [String] = []
        for i in 0..<5 {
            let reply = try await service.request("POST", "/v1/compositions", token: token, body: #"{"capture": "panel", "idempotencyKey": "k\#(i)"}"#)
            #expect(reply.status == 201)
            #expect(reply.headers["location"].first == "/v1/compositions/\(reply.json["id"] as? String ?? "")")
            ids.append(reply.json["id"] as? String ?? "")
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try await service.request("GET", "/v1/compositions?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            #expect(page.status == 200)
            let data = page.json["data"] as? [[String: Any]] ?? []
            #expect(data.count <= 2)
            seen += data.compactMap { $0["id"] as? String }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        #expect(seen == ids.reversed(), "newest first, each once")

        // A queued composition is cancelled at once; cancelling again is a conflict.
        let cancelled = try await service.request("DELETE", "/v1/compositions/\(ids[1])", token: token)
        #expect(cancelled.status == 200 && cancelled.json["status"] as? String == "cancelled", "\(cancelled.body)")
        #expect(try await service.request("DELETE", "/v1/compositions/\(ids[1])", token: token).status == 409)
        #expect(try await service.request("DELETE", "/v1/compositions/no-such-id", token: token).status == 404)
        let onlyCancelled = try await service.request("GET", "/v1/compositions?status=cancelled", token: token)
        #expect((onlyCancelled.json["data"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [ids[1]])
        let queued = try await service.request("GET", "/v1/compositions?status=queued&limit=100", token: token)
        #expect((queued.json["data"] as? [Any])?.count == 4)
        #expect(try await service.request("GET", "/readyz", token: nil).status == 200)

        // The OpenAPI document served is the one in docs/.
        let served = try await service.request("GET", "/openapi.json", token: nil)
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/openapi.json")
        let a = try JSONSerialization.jsonObject(with: Data(served.body.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(contentsOf: docs)) as? NSDictionary
        #expect(a != nil && a == b)
    }

    /// DELETE on a composition that is composing stops its compose child at once (SIGTERM), keeps
    /// nothing, and the composition says cancelled, not completed (issue 26: it used to run to 100 %).
    @Test func cancellingARunningCompositionStopsItsComposeAtOnce() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1)
        defer { Task { await service.stop() } }
        // A compose that would take a minute: 600 steps of 0.1 s.
        let capture = try service.addCapture("long", behaviour: "steps=600; delay=0.1")
        let token = try await ServiceFixture.token()
        let created = try await service.request("POST", "/v1/compositions", token: token, body: #"{"capture": "long"}"#)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        _ = try await service.waitFor(id, status: "composing", seconds: 30)
        try await eventually(10, "compose started") { ComposeScript.runs(of: capture) == 1 }
        let asked = ContinuousClock.now
        let cancel = try await service.request("DELETE", "/v1/compositions/\(id)", token: token)
        #expect(cancel.status == 202 || cancel.status == 200, "\(cancel.body)")
        let done = try await service.waitFor(id, status: "cancelled", seconds: 10)
        try await eventually(10, "compose stopped by SIGTERM") { ComposeScript.terminations(of: capture) == 1 }
        #expect(ContinuousClock.now - asked < .seconds(8), "the child was stopped, not run to its end")
        #expect((done["progress"] as? Double ?? 0) < 100, "\(done)")
        // Nothing kept: no output, no staging folder under the output root.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: service.outputRoot)) ?? []
        #expect(left.filter { $0 == id || $0.contains(".\(id).stagemix-") }.isEmpty, "\(left)")
    }

    /// The whole path with the real `stagemix compose`: queued, composing, completed with outputs,
    /// duration and summaries; and the metrics show it.
    @Test func aRealCompositionCompletesWithItsOutputsAndSummaries() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1, fakeCompose: false)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let token = try await ServiceFixture.token()
        let created = try await service.request("POST", "/v1/compositions", token: token, body: """
            {"capture": "panel", "layout": "grid", "options": {"resolution": "640x360", "preset": "ultrafast"}, "callbackUrl": "\(receiver.url)"}
            """)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        let done = try await service.waitFor(id, status: "completed", seconds: 120)
        let outputs = done["outputs"] as? [String: String] ?? [:]
        #expect(outputs["directory"] == "\(service.outputRoot)/\(id)")
        for key in ["playlist", "timeline", "billing", "plan", "report"] {
            #expect(FileManager.default.fileExists(atPath: outputs[key] ?? "/none"), "\(key)")
        }
        #expect(done["duration"] as? Double == 30)
        #expect(done["progress"] as? Double == 100)
        let billing = done["billing"] as? [String: Any]
        #expect(billing?["outputTier"] as? String == "HD" || billing?["outputTier"] as? String == "audio" || billing != nil)
        let timeline = done["timeline"] as? [String: Any]
        #expect((timeline?["participants"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Maya", "Omar"])
        // Omar is on stage 4.5-27 s but forced to viewer (no tile) 21-24 s: seen for 19.5 s, as the video shows him.
        #expect((timeline?["participants"] as? [[String: Any]])?.compactMap { $0["onStageMs"] as? Int } == [30_000, 19_500])
        try await eventually(30, "the completed webhook") { receiver.events(of: id).last?.type == "composition.completed" }
        let types = receiver.events(of: id).map(\.type)
        #expect(types.first == "composition.queued" && types.dropFirst().first == "composition.started", "\(types)")
        #expect(receiver.all.allSatisfy { $0.signatureValid })
        let metrics = try await service.request("GET", "/metrics", token: nil)
        #expect(metrics.body.contains(#"stagemix_worker_attempts_total{outcome="succeeded"} 1"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"stagemix_queue_jobs{state="succeeded"} 1"#))
        #expect(metrics.body.contains("hb_requests"), "Hummingbird's request metrics through swift-metrics")
        #expect(service.log.contains("composition=\(id)"), "the composition id in the logs' metadata")
    }

    @Test func aChunkedCompositionIsOneCompositionWithOneSetOfEvents() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 2, fakeCompose: false)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let token = try await ServiceFixture.token()
        // A chunk must be a whole number of segments: named by its field.
        let odd = try await service.request("POST", "/v1/compositions", token: token,
                                            body: #"{"capture": "panel", "options": {"chunkSeconds": 6}}"#)
        #expect(odd.status == 422 && odd.json["field"] as? String == "options.chunkSeconds", "\(odd.body)")
        let created = try await service.request("POST", "/v1/compositions", token: token, body: """
            {"capture": "panel", "options": {"resolution": "640x360", "preset": "ultrafast", "chunkSeconds": 8}, "callbackUrl": "\(receiver.url)"}
            """)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        let done = try await service.waitFor(id, status: "completed", seconds: 120)
        #expect(done["duration"] as? Double == 30)
        let queue = try await QueueURL(service.queueURL).open()
        #expect(try await queue.chunks(of: id).count == 4)
        await queue.close()
        try await eventually(30, "the completed webhook") { receiver.events(of: id).last?.type == "composition.completed" }
        // Once per composition, not per chunk: one queued, one started, each progress step once, one completed.
        let types = receiver.events(of: id).map(\.type)
        #expect(types.filter { $0 == "composition.started" }.count == 1, "\(types)")
        #expect(types.filter { $0 == "composition.completed" }.count == 1 && types.first == "composition.queued", "\(types)")
        let steps = receiver.events(of: id).filter { $0.type == "composition.progress" }.compactMap(\.progress)
        #expect(steps == steps.sorted() && Set(steps).count == steps.count, "\(steps)")
        let report = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(service.outputRoot)/\(id)/report.json"))) as? [String: Any])
        #expect(report["queue"] != nil && report["chunking"] != nil)
    }
}
