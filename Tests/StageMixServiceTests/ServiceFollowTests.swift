import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// `"follow": true` in `POST /v1/compositions`: a capture still being recorded is accepted and queued
/// as one job that follows it (no chunk phases); without it, the request names `capture` and
/// `$.recording`; with edits, `options.edits`. While it is recorded, `GET` shows how much of the
/// session is recorded and how much composed, and no time left.
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

    /// A real worker in the service runs the real `compose --follow` while `stagemix replay` records:
    /// the composition's `recordedSeconds` and `composedSeconds` move forward while it is recorded, the
    /// composed behind the recorded, with no `secondsLeft`; once completed, neither is shown.
    @Test func aFollowedCompositionShowsItsRecordedAndComposedPositionsWhileRecorded() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1, fakeCompose: false)
        defer { Task { await service.stop() } }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/panel").path
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: try WorkerProcesses.binary)
        recorder.arguments = ["replay", sample, "--out", "\(service.captureRoot)/live", "--speed", "2", "--tick", "0.25"]
        recorder.standardOutput = FileHandle.nullDevice
        recorder.standardError = FileHandle.nullDevice
        // At twice real time (15 s): long enough that the worker is composing well before the end on a loaded machine.
        try recorder.run()
        defer { if recorder.isRunning { recorder.terminate() } }
        try await eventually(10, "the recording started") { FileManager.default.fileExists(atPath: "\(service.captureRoot)/live/session.json") }

        let token = try await ServiceFixture.token()
        let created = try await service.request("POST", "/v1/compositions", token: token, body: """
            {"capture": "live", "options": {"follow": true, "chunkSeconds": 4, "resolution": "640x360", "fps": 15, "preset": "ultrafast"}}
            """)
        #expect(created.status == 201, "\(created.body)")
        let id = try #require(created.json["id"] as? String)
        var seen: [[Double]] = []
        while recorder.isRunning {
            let view = try await service.composition(id)
            if view["status"] as? String == "composing" {
                #expect(view["secondsLeft"] == nil, "\(view)")
                if let recorded = view["recordedSeconds"] as? Double, let composed = view["composedSeconds"] as? Double,
                   [recorded, composed] != seen.last {
                    seen.append([recorded, composed])
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(seen.count >= 2, "\(seen)")
        #expect(seen.allSatisfy { $0[0] >= $0[1] }, "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1[0] >= $0[0] && $1[1] >= $0[1] }, "\(seen)")
        #expect(seen.contains { $0[1] > 0 }, "no chunk composed while recorded: \(seen)")

        let done = try await service.waitFor(id, status: "completed", seconds: 120)
        #expect(done["duration"] as? Double == 30 && done["progress"] as? Double == 100, "\(done)")
        #expect(done["recordedSeconds"] == nil && done["composedSeconds"] == nil, "\(done)")
    }
}
