import Foundation
import StageMixQueue
import StageMixQueueTestSupport
import Testing

/// `stagemix enqueue --follow`: a composition of a capture still being recorded (`stagemix replay`
/// writes it) is queued at once, taken by a real worker running the real `stagemix compose --follow`,
/// which holds it for the session, its recorded and composed positions stored as they move, and
/// succeeds with the output a whole run writes, `report.json` saying it followed. On SQLite and PostgreSQL.
extension WorkerProcessTests {
    @Test(arguments: QueueBackend.allCases)
    func aCompositionQueuedWhileRecordedIsComposedAsTheSessionGoes(backend: QueueBackend) async throws {
        try await withFixture(backend) { fixture in
            let binary = try WorkerProcesses.binary
            let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/panel").path
            let live = "\(fixture.directory)/captures/live"
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: binary)
            recorder.arguments = ["replay", sample, "--out", live, "--speed", "4", "--tick", "0.25"]
            recorder.standardOutput = FileHandle.nullDevice
            recorder.standardError = FileHandle.nullDevice
            try recorder.run()
            defer { if recorder.isRunning { recorder.terminate() } }
            try await eventually(10, "the recording started") { FileManager.default.fileExists(atPath: "\(live)/session.json") }

            let options = ["--chunk-seconds", "4", "--resolution", "640x360", "--fps", "15", "--preset", "ultrafast"]
            // Without --follow a capture in progress is refused, naming $.recording.
            do {
                _ = try await fixture.workers.cli(["enqueue", live, "--out", "\(fixture.directory)/out/no"] + options)
                Issue.record("a capture in progress was queued without --follow")
            } catch {
                #expect("\(error)".contains("$.recording") && "\(error)".contains("exit status 65"), "\(error)")
            }

            let out = "\(fixture.directory)/out/followed"
            let id = try await fixture.workers.cli(["enqueue", live, "--out", out, "--follow"] + options)
            _ = try fixture.workers.start(name: "a", realCompose: true)
            // Taken at once, while the session is still being recorded: the job holds the worker.
            try await eventually(20, "the job running") { try await fixture.state(id).state == .running }
            #expect(recorder.isRunning)
            // While it is recorded the job's positions move forward, the composed one behind the recorded one.
            var seen: [FollowPosition] = []
            while recorder.isRunning {
                if let position = try? await fixture.state(id).followPosition, position != seen.last { seen.append(position) }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(seen.count >= 2, "\(seen)")
            #expect(seen.allSatisfy { $0.recordedSeconds >= $0.composedSeconds }, "\(seen)")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $1.recordedSeconds >= $0.recordedSeconds && $1.composedSeconds >= $0.composedSeconds },
                    "\(seen)")
            #expect(seen.contains { $0.composedSeconds > 0 }, "no chunk composed while recorded: \(seen)")
            try await fixture.waitFor(id, .succeeded, seconds: 120)
            // Waited for without holding one of the few threads every async test shares.
            while recorder.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            let job = try await fixture.state(id)
            #expect(job.phase == nil && job.attempt == 1, "one job, no phases: \(job)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json"))) as? [String: Any])
            let followed = try #require(report["followed"] as? [String: Any], "\(report.keys)")
            #expect((followed["chunksWhileRecorded"] as? Int ?? 0) >= 2, "\(followed)")

            let whole = "\(fixture.directory)/whole"
            _ = try await run(binary, ["compose", live, "--out", whole] + options)
            for file in ["hls/index.m3u8", "timeline.json", "billing.json", "plan.json"] {
                let a = try Data(contentsOf: URL(fileURLWithPath: "\(whole)/\(file)"))
                let b = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(file)"))
                #expect(a == b, "\(file) differs from the whole run's")
            }
            #expect(fixture.leftovers() == [])
        }
    }

    /// A worker that dies mid-session: the next attempt carries on from the chunks the first one made
    /// (in the composition's work beside its output), encoding only what is left, and the output is
    /// the whole run's; the work goes once the composition has succeeded.
    @Test func aFollowedCompositionWhoseWorkerDiesIsCarriedOnFromItsChunks() async throws {
        try await withFixture(.sqlite) { fixture in
            let binary = try WorkerProcesses.binary
            let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/panel").path
            let live = "\(fixture.directory)/captures/live"
            let recorder = Process()
            recorder.executableURL = URL(fileURLWithPath: binary)
            recorder.arguments = ["replay", sample, "--out", live, "--speed", "2", "--tick", "0.25"]
            recorder.standardOutput = FileHandle.nullDevice
            recorder.standardError = FileHandle.nullDevice
            try recorder.run()
            defer { if recorder.isRunning { recorder.terminate() } }
            try await eventually(10, "the recording started") { FileManager.default.fileExists(atPath: "\(live)/session.json") }

            let options = ["--chunk-seconds", "4", "--resolution", "640x360", "--fps", "15", "--preset", "ultrafast"]
            let out = "\(fixture.directory)/out/followed"
            let id = try await fixture.workers.cli(["enqueue", live, "--out", out, "--follow"] + options)
            let doomed = try fixture.workers.start(name: "doomed", realCompose: true)
            let work = "\(fixture.directory)/out/.followed.stagemix-chunks-\(id)"
            try await eventually(30, "two chunks made") { FileManager.default.fileExists(atPath: "\(work)/chunk-00001/chunk-00001.result.json") }
            doomed.send(SIGKILL)
            try await doomed.waitForExit(seconds: 5)
            #expect(recorder.isRunning, "the session was still being recorded")

            _ = try fixture.workers.start(name: "rescuer", realCompose: true)
            try await fixture.waitFor(id, .succeeded, seconds: 120)
            // Waited for without holding one of the few threads every async test shares.
            while recorder.isRunning { try await Task.sleep(for: .milliseconds(50)) }
            let job = try await fixture.state(id)
            #expect(job.attempt == 2, "\(job)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json"))) as? [String: Any])
            let followed = try #require(report["followed"] as? [String: Any], "\(report.keys)")
            #expect((followed["chunksTakenOver"] as? Int ?? 0) >= 2, "\(followed)")

            let whole = "\(fixture.directory)/whole"
            _ = try await run(binary, ["compose", live, "--out", whole] + options)
            for file in ["hls/index.m3u8", "timeline.json", "billing.json", "plan.json"] {
                let a = try Data(contentsOf: URL(fileURLWithPath: "\(whole)/\(file)"))
                let b = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(file)"))
                #expect(a == b, "\(file) differs from the whole run's")
            }
            #expect(!FileManager.default.fileExists(atPath: work), "the work outlived the composition")
            try await eventually(5, "no leftovers") { fixture.leftovers().isEmpty }
        }
    }
}
