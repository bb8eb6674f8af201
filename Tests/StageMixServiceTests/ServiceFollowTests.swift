import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// `"follow": true` in `POST /v1/compositions`: a capture still being recorded is accepted and queued
/// as one job that follows it (no chunk phases); without it, the request names `capture` and
/// `$.recording`; with edits, `options.edits`.
@Suite("Service: compositions that follow their recording", .serialized)
struct ServiceFollowTests {
    @Test func aCaptureInProgressIsQueuedWithFollowAndRefusedWithout() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        let path = try service.addCapture("live")
        let manifest = URL(fileURLWithPath: "\(path)/session.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        document["events"] = (document["events"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "session.ended" }
        document["recording"] = ["completeToMs": 2_000]
        try JSONSerialization.data(withJSONObject: document).write(to: manifest)
        let token = try await ServiceFixture.token()

        let refused = try await service.request("POST", "/v1/compositions", token: token, body: #"{"capture": "live"}"#)
        #expect(refused.status == 422 && refused.body.contains("$.recording") && refused.body.contains("with options.follow"), "\(refused.body)")

        let withEdits = try await service.request("POST", "/v1/compositions", token: token,
                                                  body: #"{"capture": "live", "options": {"follow": true, "edits": {"format": "stagemix.edits/1"}}}"#)
        #expect(withEdits.status == 422 && withEdits.body.contains("options.edits"), "\(withEdits.body)")

        let followed = try await service.request("POST", "/v1/compositions", token: token,
                                                 body: #"{"capture": "live", "options": {"follow": true, "chunkSeconds": 4}}"#)
        #expect(followed.status == 201 || followed.status == 202, "\(followed.body)")
        let id = try #require(followed.json["id"] as? String)
        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        defer { Task { await queue.close() } }
        let (_, job) = try #require(try await queue.composition(id: id, apiKey: nil))
        #expect(job.spec.options.follow == true && job.spec.options.chunkSeconds == 4 && job.phase == nil, "\(job)")
        #expect(job.spec.composeArguments(outDirectory: "/tmp/x").contains("--follow"))
    }
}
