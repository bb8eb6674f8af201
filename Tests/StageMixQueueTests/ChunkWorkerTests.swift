import Foundation
import StageMixQueue
import StageMixQueueTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A chunked composition composed by real worker processes running the real `stagemix compose`, on
/// SQLite and on PostgreSQL: a worker SIGKILLed while it encodes a chunk loses only that chunk, which
/// another worker takes once its lease has run out, and the output is the one a whole run writes.
extension WorkerProcessTests {
    @Test(arguments: QueueBackend.allCases)
    func aWorkerKilledMidChunkLosesOnlyThatChunk(backend: QueueBackend) async throws {
        try await withFixture(backend) { fixture in
            let binary = try WorkerProcesses.binary
            let capture = "\(fixture.directory)/captures/panel"
            try await run(binary, ["synth", "panel", "--out", capture, "--duration", "16", "--jobs", "1"])
            let options = ["--preset", "slower", "--thumbnails", "4"]
            let out = "\(fixture.directory)/out/chunked"
            let worker = try fixture.workers.start(name: "a", realCompose: true)
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", out, "--chunk-seconds", "4"] + options)

            // Killed while a chunk of its is under way: the worker alone, as a machine that died would be.
            var killed: Job?
            try await eventually(60, "a chunk running on worker a") {
                killed = try await fixture.queue.chunks(of: id).first { $0.state == .running && $0.leaseOwner == "a" }
                return killed != nil
            }
            worker.send(SIGKILL)
            try await worker.waitForExit(seconds: 10)
            let lost = try #require(killed)

            let metricsPort = try freeLoopbackPort()
            _ = try fixture.workers.start(name: "b", realCompose: true, extraArguments: ["--metrics", "127.0.0.1:\(metricsPort)"])
            _ = try fixture.workers.start(name: "c", realCompose: true)
            try await fixture.waitFor(id, .succeeded, seconds: 120)

            let chunks = try await fixture.queue.chunks(of: id)
            #expect(chunks.count == 4 && chunks.allSatisfy { $0.state == .succeeded })
            // The lost chunk was taken again; the others each ran once.
            #expect(chunks.first { $0.id == lost.id }.map { $0.attempt >= 2 } == true, "\(chunks.map(\.attempt))")
            #expect(chunks.filter { $0.id != lost.id && $0.attempt != 1 }.isEmpty, "\(chunks.map(\.attempt))")
            let metrics = try await fixture.workers.httpGet(port: metricsPort, path: "/metrics")
            #expect(metrics.contains(#"stagemix_queue_chunks{state="succeeded"} 4"#), "\(metrics)")
            #expect(metrics.contains(#"stagemix_queue_jobs{state="succeeded"} 1"#))
            // Nothing is left beside the output: the work folder went with the publication.
            #expect(fixture.leftovers() == [])
            let shown = try await fixture.workers.cli(["jobs", "show", id, "--chunks"])
            #expect(shown.contains("chunks:       4: 4 succeeded"), "\(shown)")

            // The same as a whole run: playlist, frames, documents, thumbnails.
            let whole = "\(fixture.directory)/whole"
            _ = try await run(binary, ["compose", capture, "--out", whole] + options)
            for file in ["hls/index.m3u8", "timeline.json", "billing.json", "thumbnails.vtt"] {
                let a = try String(contentsOfFile: "\(whole)/\(file)", encoding: .utf8)
                let b = try String(contentsOfFile: "\(out)/\(file)", encoding: .utf8)
                #expect(a == b, "\(file) differs")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(out)/thumbnails").sorted()
                == FileManager.default.contentsOfDirectory(atPath: "\(whole)/thumbnails").sorted())
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json"))) as? [String: Any])
            let wholeReport = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(whole)/report.json"))) as? [String: Any])
            #expect(report["frames"] as? Int == wholeReport["frames"] as? Int)
            let queue = try #require(report["queue"] as? [String: Any])
            #expect((queue["timeToReadySeconds"] as? Double ?? 0) > 0)
            #expect((queue["chunks"] as? [Any])?.count == 4)
            #expect(((report["chunking"] as? [String: Any])?["chunks"] as? [Any])?.count == 4)
        }
    }
}
