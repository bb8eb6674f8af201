import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Stopping `stagemix serve` (issue 32): the wait is said as it starts, its length is `--shutdown-grace`
/// as on `worker`, a clean stop warns of nothing, and the job it gives back shows what a queued job shows.
@Suite("Service shutdown", .serialized)
struct ServiceShutdownTests {
    @Test func aStopWithAJobInHandSaysWhatItWaitsForAndReleasesTheJobClean() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1, extra: ["--shutdown-grace", "1"])
        defer { Task { await service.stop() } }
        // A compose that would take a minute: 600 steps of 0.1 s.
        try service.addCapture("long", behaviour: "steps=600; delay=0.1")
        let token = try await ServiceFixture.token()
        let created = try await service.request("POST", "/v1/compositions", token: token, body: #"{"capture": "long"}"#)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        _ = try await service.waitFor(id, status: "composing", seconds: 30)
        try await eventually(20, "progress stored") { (try await service.composition(id)["progress"] as? Double ?? 0) > 0 }

        let asked = ContinuousClock.now
        service.process?.send(SIGTERM)
        try await service.process?.waitForExit(seconds: 20)
        #expect(ContinuousClock.now - asked < .seconds(8), "a grace of 1 s, then compose's stop")
        #expect(service.process?.exit == .exited(0))
        let log = service.log
        let waiting = try #require(log.range(of: "shutting down: claiming no more; waiting up to 1 s (--shutdown-grace)"), "\(log.suffix(3000))")
        let released = try #require(log.range(of: "shutdown grace over: released"), "\(log.suffix(3000))")
        #expect(waiting.lowerBound < released.lowerBound, "the wait is said before it ends")
        #expect(!log.contains("cannot read the webhook outbox"), "\(log.suffix(3000))")

        // What `jobs list` and `jobs show` say of it: queued, the attempt given back, no progress.
        let list = try run(["jobs", "list", "--queue", service.queueURL])
        let line = try #require(list.split(separator: "\n").first { $0.hasPrefix(id) }, "\(list)")
        #expect(line.contains("queued") && line.contains("0/3") && line.contains("0.0%"), "\(line)")
        let show = try run(["jobs", "show", id, "--queue", service.queueURL])
        #expect(show.contains("progress:     0.0 %") && show.contains("attempts:     0 of 3"), "\(show)")
    }

    @Test func anIdleStopIsQuickAndWarnsOfNothing() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1)
        defer { Task { await service.stop() } }
        try await Task.sleep(for: .milliseconds(500))
        let asked = ContinuousClock.now
        service.process?.send(SIGTERM)
        try await service.process?.waitForExit(seconds: 10)
        #expect(ContinuousClock.now - asked < .seconds(5))
        #expect(service.process?.exit == .exited(0))
        let log = service.log
        #expect(log.contains("shutting down: no job in hand"), "\(log)")
        #expect(!log.contains("warning"), "\(log)")
    }

    /// `stagemix <arguments>` (the service binary) to its end; its stdout.
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try WorkerProcesses.binary)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
