import Foundation
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Real `stagemix worker` processes, a real queue, and a shell script standing in for compose.
@Suite("Worker processes", .serialized)
struct WorkerProcessTests {
    struct Fixture {
        let directory: String
        let queueURL: String
        let queue: any JobQueue
        let workers: WorkerProcesses

        static func make(_ backend: QueueBackend, queueURL: String? = nil) async throws -> Fixture {
            let directory = try makeTemporaryDirectory(prefix: "stagemix-workers")
            var url = queueURL ?? ""
            if queueURL == nil { url = try await backend.makeURL() }
            let script = try ComposeScript.install(in: directory)
            return Fixture(
                directory: directory, queueURL: url, queue: try await QueueURL(url).open(),
                workers: WorkerProcesses(directory: directory, queueURL: url, composeScript: script)
            )
        }

        func enqueue(_ name: String, behaviour: String = "") async throws -> (id: String, capture: String, out: String) {
            let capture = try ComposeScript.makeCapture(in: directory, name: name, behaviour: behaviour)
            let out = "\(directory)/out/\(name)"
            let id = try await queue.enqueue(JobSpec(capture: capture, out: out), maxAttempts: 5).id
            return (id, capture, out)
        }

        func state(_ id: String) async throws -> Job {
            guard let job = try await queue.job(id: id) else { throw TestFailure("no job \(id)") }
            return job
        }

        func waitFor(_ id: String, _ state: JobState, seconds: Double = 30) async throws {
            do {
                try await eventually(seconds, "job \(id) \(state)") { try await self.state(id).state == state }
            } catch {
                throw TestFailure("\(error); job is \(try await self.state(id))\n\(workers.logs())")
            }
        }

        /// Jobs whose behaviour names `gate` wait after their steps until `openGate()`, so a test
        /// can act while they are surely running, however slowly the machine is going.
        var gate: String { "gate=\(directory)/gate" }

        func openGate() {
            _ = FileManager.default.createFile(atPath: "\(directory)/gate", contents: nil)
        }

        func waitForRunning(_ count: Int) async throws {
            do {
                try await eventually(30, "\(count) jobs running") {
                    try await queue.list(limit: 100).filter { $0.state == .running && $0.progress > 0 }.count >= count
                }
            } catch {
                throw TestFailure("\(error)\n\(workers.logs())")
            }
        }

        func tearDown() async {
            await workers.stopAll()
            await queue.close()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Nothing but finished outputs in the output directory: no attempt dirs, no partial dirs.
        func leftovers() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/out")) ?? []).filter { $0.contains(".") }
        }
    }

    /// Runs `body` with a fresh fixture; stops its workers and closes its queue whatever happens.
    func withFixture(_ backend: QueueBackend, queueURL: String? = nil, _ body: (Fixture) async throws -> Void) async throws {
        let fixture = try await Fixture.make(backend, queueURL: queueURL)
        do {
            try await body(fixture)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    @Test(arguments: QueueBackend.allCases)
    func severalWorkersDrainTheQueueEachJobOnce(backend: QueueBackend) async throws {
        try await withFixture(backend) { fixture in
            var jobs: [(id: String, capture: String, out: String)] = []
            for i in 0..<12 { jobs.append(try await fixture.enqueue("show\(i)", behaviour: "steps=3; delay=0.05; \(fixture.gate)")) }
            _ = try (0..<3).map { try fixture.workers.start(name: "w\($0)", concurrency: 2) }
            // Six held at the gate means every worker holds two.
            try await fixture.waitForRunning(6)
            fixture.openGate()

            for job in jobs { try await fixture.waitFor(job.id, .succeeded) }
            for job in jobs {
                #expect(ComposeScript.runs(of: job.capture) == 1, "job \(job.id) ran more than once")
                #expect(ComposeScript.isWhole(job.out, steps: 3))
                #expect(try await fixture.state(job.id).attempt == 1)
            }
            #expect(fixture.leftovers() == [])
            // More than one worker took part.
            let owners = Set(fixture.workers.logs().split(separator: "\n").filter { $0.contains("succeeded") }.compactMap { $0.split(separator: "@").last?.split(separator: " ").first })
            #expect(owners.count == 3)
        }
    }

    @Test func killedWorkersJobIsRescuedByAnother() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("rescued", behaviour: "steps=12; delay=0.02; \(fixture.gate)")
            let doomed = try fixture.workers.start(name: "doomed")
            try await fixture.waitForRunning(1)
            doomed.send(SIGKILL)
            try await doomed.waitForExit(seconds: 5)
            fixture.openGate()

            _ = try fixture.workers.start(name: "rescuer")
            try await fixture.waitFor(job.id, .succeeded)
            let done = try await fixture.state(job.id)
            #expect(done.attempt == 2)
            #expect(ComposeScript.isWhole(job.out, steps: 12))
            try await eventually(5, "no leftovers") { fixture.leftovers().isEmpty }
        }
    }

    /// A worker SIGKILLed after it published but before the queue heard (scripts/chaos caught one): the
    /// job's own whole output is in place, so its rescue composes and publishes nothing again.
    @Test func aJobWhoseEarlierAttemptPublishedIsNotComposedAgain() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("published", behaviour: "steps=2")
            try FileManager.default.createDirectory(atPath: job.out, withIntermediateDirectories: true)
            for name in ["segment1.ts", "segment2.ts", "playlist.m3u8"] {
                try "earlier attempt".write(toFile: "\(job.out)/\(name)", atomically: false, encoding: .utf8)
            }
            let marker = #"{"entries":["playlist.m3u8","segment1.ts","segment2.ts"],"format":"stagemix.output/1","job":"\#(job.id)","publishedAt":"2026-11-27T19:00:00Z"}"#
            try marker.write(toFile: "\(job.out)/.stagemix-output", atomically: false, encoding: .utf8)
            _ = try fixture.workers.start(name: "rescuer")
            try await fixture.waitFor(job.id, .succeeded)
            #expect(ComposeScript.runs(of: job.capture) == 0, "compose ran again")
            #expect(try String(contentsOfFile: "\(job.out)/.stagemix-output", encoding: .utf8) == marker, "the output was published again")
            #expect(try String(contentsOfFile: "\(job.out)/segment1.ts", encoding: .utf8) == "earlier attempt")
            #expect(fixture.leftovers() == [])
        }
    }

    @Test func aJobIsNeverPublishedOverWhatStageMixDidNotWrite() async throws {
        try await withFixture(.sqlite) { fixture in
            // Refused before compose runs: the folder holds someone's files.
            let early = try await fixture.enqueue("photos", behaviour: "steps=1")
            try FileManager.default.createDirectory(atPath: early.out, withIntermediateDirectories: true)
            try "cat".write(toFile: "\(early.out)/cat.jpg", atomically: false, encoding: .utf8)
            // Refused at publish: the folder appears while the job runs.
            let late = try await fixture.enqueue("late", behaviour: "steps=1; \(fixture.gate)")
            _ = try fixture.workers.start(name: "careful")
            try await fixture.waitFor(early.id, .dead)
            #expect(ComposeScript.runs(of: early.capture) == 0)
            try await fixture.waitForRunning(1)
            try FileManager.default.createDirectory(atPath: late.out, withIntermediateDirectories: true)
            try "dog".write(toFile: "\(late.out)/dog.jpg", atomically: false, encoding: .utf8)
            fixture.openGate()
            try await fixture.waitFor(late.id, .dead)
            for (job, file, text) in [(early, "cat.jpg", "cat"), (late, "dog.jpg", "dog")] {
                let state = try await fixture.state(job.id)
                #expect(state.attempt == 1)
                #expect(state.lastError?.contains("did not write") == true, "\(state.lastError ?? "")")
                #expect(try FileManager.default.contentsOfDirectory(atPath: job.out) == [file])
                #expect(try String(contentsOfFile: "\(job.out)/\(file)", encoding: .utf8) == text)
            }
            #expect(fixture.leftovers() == [])
        }
    }

    @Test func sigtermLetsTheJobInHandFinish() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("graceful", behaviour: "steps=10; delay=0.15")
            let other = try await fixture.enqueue("untouched", behaviour: "steps=1")
            let worker = try fixture.workers.start(name: "graceful", shutdownGrace: 20)
            try await eventually(15, "job running") { try await fixture.state(job.id).state == .running }
            worker.send(SIGTERM)
            try await worker.waitForExit(seconds: 15)
            #expect(worker.exit == .exited(0))
            let done = try await fixture.state(job.id)
            #expect(done.state == .succeeded && done.attempt == 1)
            #expect(ComposeScript.isWhole(job.out, steps: 10))
            // It stopped claiming: the second job was never started.
            #expect(try await fixture.state(other.id).state == .queued)
        }
    }

    @Test func sigtermPastTheGraceReleasesTheJob() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("released", behaviour: "steps=40; delay=0.01; \(fixture.gate)")
            let worker = try fixture.workers.start(name: "impatient", shutdownGrace: 0.5)
            try await fixture.waitForRunning(1)
            worker.send(SIGTERM)
            try await worker.waitForExit(seconds: 10)
            let released = try await fixture.state(job.id)
            #expect(released.state == .queued && released.attempt == 0 && released.leaseOwner == nil)
            #expect(!FileManager.default.fileExists(atPath: job.out))
            #expect(fixture.leftovers() == [])

            fixture.openGate()
            _ = try fixture.workers.start(name: "next")
            try await fixture.waitFor(job.id, .succeeded)
            #expect(try await fixture.state(job.id).attempt == 1)
            #expect(ComposeScript.isWhole(job.out, steps: 40))
        }
    }

    @Test func cancellingARunningJobStopsItsChild() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("cancelled", behaviour: "steps=2; delay=0.01; \(fixture.gate)")
            _ = try fixture.workers.start(name: "canceller")
            try await fixture.waitForRunning(1)
            let said = try await fixture.workers.cli(["jobs", "cancel", job.id])
            #expect(said.contains("cancelling"))
            try await fixture.waitFor(job.id, .cancelled, seconds: 10)
            #expect(!FileManager.default.fileExists(atPath: job.out))
            #expect(fixture.leftovers() == [])
            #expect(ComposeScript.runs(of: job.capture) == 1)
        }
    }

    /// A cancel stops the child within a second or two however slow the heartbeat: SIGTERM to compose,
    /// no output published, no staging left, the job cancelled with the progress it had.
    @Test(arguments: QueueBackend.allCases)
    func cancelStopsTheChildAtOnce(backend: QueueBackend) async throws {
        try await withFixture(backend) { fixture in
            // A minute of steady progress, under a worker that renews its lease only every 10 s.
            let job = try await fixture.enqueue("long", behaviour: "steps=300; delay=0.2")
            _ = try fixture.workers.start(name: "slow-beat", leaseSeconds: 30, heartbeatSeconds: 10)
            try await fixture.waitForRunning(1)
            let pid = try #require(ComposeScript.pids(of: job.capture).first)

            let said = try await fixture.workers.cli(["jobs", "cancel", job.id])
            #expect(said.contains("cancelling"))
            try await eventually(3, "compose child \(pid) gone") { kill(pid, 0) != 0 }
            try await fixture.waitFor(job.id, .cancelled, seconds: 3)
            #expect(ComposeScript.terminations(of: job.capture) == 1, "compose was not sent SIGTERM")
            #expect(!FileManager.default.fileExists(atPath: job.out))
            #expect(fixture.leftovers() == [])
            let cancelled = try await fixture.state(job.id)
            #expect(cancelled.progress > 0 && cancelled.progress < 50, "\(cancelled)")
            #expect(try await fixture.workers.cli(["jobs", "list"]).contains("cancelled"))
            #expect(ComposeScript.runs(of: job.capture) == 1)
        }
    }

    /// Progress reaches the queue as it moves, not at the heartbeat: with a child printing four times a
    /// second and a 10 s heartbeat, the stored progress never stands still for more than about a second.
    @Test func progressIsStoredAboutOnceASecond() async throws {
        try await withFixture(.sqlite) { fixture in
            let job = try await fixture.enqueue("steady", behaviour: "steps=32; delay=0.25")
            _ = try fixture.workers.start(name: "steady", leaseSeconds: 30, heartbeatSeconds: 10)
            var changes: [(at: Date, progress: Double)] = []
            try await eventually(30, "progress past 75 %") {
                let progress = try await fixture.state(job.id).progress
                if progress != changes.last?.progress ?? 0 { changes.append((Date(), progress)) }
                return progress >= 75
            }
            let gaps = zip(changes, changes.dropFirst()).map { $1.at.timeIntervalSince($0.at) }
            // Generous for a busy machine; the heartbeat alone would leave 10 s gaps.
            #expect(changes.count >= 8 && (gaps.max() ?? 0) < 2, "\(changes.map(\.progress)) \(gaps)")
            try await fixture.waitFor(job.id, .succeeded)
        }
    }

    @Test func failuresAreRetriedAndBadInputIsDeadAtOnce() async throws {
        try await withFixture(.sqlite) { fixture in
            let flaky = try await fixture.enqueue("flaky", behaviour: "fail_runs=2")
            let bad = try await fixture.enqueue("bad", behaviour: "code=65").id
            let usage = try await fixture.enqueue("usage", behaviour: "code=64").id

            _ = try fixture.workers.start(name: "retrier")
            try await fixture.waitFor(flaky.id, .succeeded)
            #expect(try await fixture.state(flaky.id).attempt == 3)
            #expect(ComposeScript.runs(of: flaky.capture) == 3)

            try await fixture.waitFor(bad, .dead)
            let dead = try await fixture.state(bad)
            #expect(dead.attempt == 1)
            #expect(dead.lastError?.contains("bad input") == true)
            #expect(dead.lastError?.contains("failing with 65 on purpose") == true)
            try await fixture.waitFor(usage, .dead)
            #expect(try await fixture.state(usage).attempt == 1)
            #expect(try await fixture.state(usage).lastError?.contains("usage error") == true)
            let listing = try await fixture.workers.cli(["jobs", "list"])
            #expect(listing.contains(bad) && listing.contains("dead") && listing.contains("bad input"))
            #expect(fixture.leftovers() == [])
        }
    }

    @Test func workersRideOutAPostgresRestart() async throws {
        let server = try await TemporaryPostgres.start()
        defer { server.destroy() }
        try await withFixture(.postgres, queueURL: try await server.makeDatabase()) { fixture in
            var jobs: [(id: String, capture: String, out: String)] = []
            for i in 0..<8 { jobs.append(try await fixture.enqueue("pg\(i)", behaviour: "steps=10; delay=0.02; \(fixture.gate)")) }
            let workers = try (0..<2).map { try fixture.workers.start(name: "pgw\($0)", concurrency: 2, leaseSeconds: 4) }

            // Four jobs held mid-run while the server goes away and comes back.
            try await fixture.waitForRunning(4)
            try await server.restart()
            fixture.openGate()
            for job in jobs { try await fixture.waitFor(job.id, .succeeded, seconds: 60) }
            for job in jobs { #expect(ComposeScript.isWhole(job.out, steps: 10)) }
            #expect(fixture.leftovers() == [])
            #expect(workers.allSatisfy { $0.isRunning })
        }
    }

    @Test func realComposeRunsUnderTheWorker() async throws {
        try await withFixture(.sqlite) { fixture in
            let capture = "\(fixture.directory)/captures/panel"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
            let out = "\(fixture.directory)/out/panel"
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", out, "--resolution", "320x180", "--preset", "ultrafast"])
            // Enqueued twice: one job.
            #expect(try await fixture.workers.cli(["enqueue", capture, "--out", out, "--preset", "ultrafast", "--resolution", "320x180"]) == id)
            // A capture that goes away after it was queued is bad input when compose runs: dead at once.
            let gone = "\(fixture.directory)/captures/gone"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", gone, "--duration", "1", "--jobs", "1"])
            let missing = try await fixture.workers.cli(["enqueue", gone, "--out", "\(fixture.directory)/out/none"])
            try FileManager.default.removeItem(atPath: "\(gone)/session.json")
            let metricsPort = try freeLoopbackPort()
            _ = try fixture.workers.start(name: "real", realCompose: true, extraArguments: ["--metrics", "127.0.0.1:\(metricsPort)"])

            try await fixture.waitFor(id, .succeeded)
            #expect(FileManager.default.fileExists(atPath: "\(out)/hls/index.m3u8"))
            #expect(FileManager.default.fileExists(atPath: "\(out)/timeline.json"))
            #expect(try await fixture.state(id).progress == 100)
            try await fixture.waitFor(missing, .dead)
            #expect(try await fixture.state(missing).attempt == 1)
            #expect(fixture.leftovers() == [])

            // Prometheus sees both attempts, nothing running, and the composition's CPU by stage.
            var metrics = ""
            try await eventually(10, "both attempts in the metrics") {
                metrics = try await fixture.workers.httpGet(port: metricsPort, path: "/metrics")
                return metrics.contains(#"stagemix_worker_attempts_total{outcome="bad_input"} 1"#)
                    && metrics.contains(#"stagemix_worker_attempts_total{outcome="succeeded"} 1"#)
            }
            #expect(metrics.hasPrefix("HTTP/1.1 200 OK"), "\(metrics)")
            #expect(metrics.contains("text/plain; version=0.0.4"))
            // A whole line: the helper joins lines without a final line feed, and which metric comes
            // last depends on the registry's dictionary order.
            #expect(metrics.split(separator: "\n").contains("stagemix_worker_running 0.0"), "\(metrics)")
            #expect(metrics.contains(#"stagemix_worker_attempts_total{outcome="failed"} 0"#))
            // And the queue as it stands: one job succeeded, one dead, none waiting.
            #expect(metrics.contains(#"stagemix_queue_jobs{state="succeeded"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"stagemix_queue_jobs{state="dead"} 1"#))
            #expect(metrics.contains(#"stagemix_queue_jobs{state="queued"} 0"#))
            let encode = metrics.split(separator: "\n").first { $0.hasPrefix(#"stagemix_compose_cpu_seconds_total{stage="encodeMux"}"#) }
            #expect((encode?.split(separator: " ").last).flatMap { Double($0) } ?? 0 > 0, "\(metrics)")
            #expect(try await fixture.workers.httpGet(port: metricsPort, path: "/").hasPrefix("HTTP/1.1 404"))
        }
    }

    /// A full disk under the worker is the machine's fault: the job is left `failed` and retried with
    /// back-off past its attempts (never dead), its last error compose's line naming the folder; once
    /// there is room, the next attempt composes it, and nothing was left on the full disk meanwhile.
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
    func aFullDiskIsRetriedNeverDeadAndComposedOnceThereIsRoom() async throws {
        try await withFixture(.sqlite) { fixture in
            let capture = "\(fixture.directory)/captures/panel"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
            let disk = try SmallFileSystem(bytes: 8 << 20)
            defer { disk.unmount() }
            let filler = try disk.fill(leaving: 100_000)
            let before = disk.listing()
            let out = disk.root.appendingPathComponent("out").path
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", out, "--resolution", "320x180", "--preset", "ultrafast",
                                                    "--max-attempts", "1"])
            _ = try fixture.workers.start(name: "full", realCompose: true)
            try await eventually(60, "two attempts failed for want of space") {
                let job = try await fixture.state(id)
                return job.state == .failed && job.attempt >= 2
            }
            let failed = try await fixture.state(id)
            #expect(failed.lastError?.hasPrefix("not enough space on device") == true, "\(failed.lastError ?? "")")
            #expect(failed.lastError?.contains(disk.root.path) == true, "\(failed.lastError ?? "")")
            #expect(disk.listing() == before, "nothing left on the full disk")
            let listing = try await fixture.workers.cli(["jobs", "show", id])
            #expect(listing.contains("not enough space on device"), "\(listing)")

            try FileManager.default.removeItem(at: filler)
            try await fixture.waitFor(id, .succeeded, seconds: 60)
            #expect(FileManager.default.fileExists(atPath: "\(out)/hls/index.m3u8"))
        }
    }

    @Test func postgresNotifyWakesAnIdleWorker() async throws {
        try await withFixture(.postgres) { fixture in
            // Polling every 60 s: only NOTIFY can bring the job to the worker quickly.
            _ = try fixture.workers.start(name: "listener", pollSeconds: 60)
            try await eventually(10, "worker idle") { fixture.workers.logs().contains("worker listener started") }
            try await Task.sleep(for: .seconds(1))
            let job = try await fixture.enqueue("woken", behaviour: "steps=1")
            try await fixture.waitFor(job.id, .succeeded, seconds: 30)
            let done = try await fixture.state(job.id)
            // Server times: from enqueue to done, far less than one 60 s poll.
            #expect(done.updatedAt - done.createdAt < 10)
        }
    }
}