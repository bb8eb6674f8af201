import Foundation
import StageMixOptions
import StageMixPublishing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTime
import Testing

/// A chunked composition on a real SQLite file and a real PostgreSQL server: its plan attempt queues
/// its chunks, any worker takes them, the last one done readies the join, one dead fails the whole,
/// a cancel stops every chunk, and the composition's events are told once, not per chunk.
@Suite("Chunks on the queue")
struct ChunkQueueTests {
    static let quickRetry = QueueOptions(retry: Backoff(baseDelay: 0.05, maxDelay: 0.05, jitter: 1...1), random: { 0 })

    func spec(_ name: String = UUID().uuidString) -> JobSpec {
        JobSpec(capture: "/captures/\(name)", out: "/out/\(name)", options: ComposeOptions(chunkSeconds: 8))
    }

    /// Claims the composition, plans it into `count` chunks; returns its id.
    func planned(_ queue: any JobQueue, count: Int, maxAttempts: Int = 5) async throws -> String {
        let id = try await queue.enqueue(spec(), maxAttempts: maxAttempts).id
        let plan = try #require(try await queue.claim(worker: "planner", leaseSeconds: 30))
        #expect(plan.id == id && plan.phase == .plan && plan.startedAt != nil)
        #expect(try await queue.split(try #require(plan.lease), chunks: count) == .applied)
        return id
    }

    @Test(arguments: QueueBackend.allCases)
    func chunksAndTheirJoinSideBySide(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 3)
        let ready = try #require(try await queue.job(id: id))
        #expect(ready.isJoinReady && ready.progress == Job.plannedPercent)
        // A stale write of the plan attempt is fenced: the composition holds no lease now.
        #expect(try await queue.succeed(JobLease(jobID: id, attempt: 1, worker: "planner")) == .fenced)

        // Compose slots take the chunks, in order, never the join.
        let c0 = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        let c1 = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(c0.parentID == id && c0.chunk == 0 && c1.chunk == 1)
        // While no join holds it, the composition's progress is its chunks'.
        #expect(try await queue.heartbeat(try #require(c0.lease), leaseSeconds: 30, progress: 50) == .keepRunning)
        let moving = try #require(try await queue.job(id: id))
        #expect(moving.progress > Job.plannedPercent, "\(moving.progress)")
        #expect(try await queue.succeed(try #require(c0.lease)) == .applied)

        // A join slot takes the join at once, while chunks remain; it is taken once.
        let join = try #require(try await queue.claim(worker: "b", leaseSeconds: 30, joins: true))
        #expect(join.id == id && join.phase == .join && join.leaseOwner == "b" && join.attempt == 2)
        #expect(join.progress >= moving.progress)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30, joins: true) == nil)
        // Its progress never goes back, whatever its first heartbeat says.
        #expect(try await queue.heartbeat(try #require(join.lease), leaseSeconds: 30, progress: 3) == .keepRunning)
        #expect(try await queue.job(id: id)?.progress ?? 0 >= moving.progress)
        #expect(try await queue.succeed(try #require(c1.lease)) == .applied)
        let c2 = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        #expect(c2.chunk == 2)
        #expect(try await queue.claim(worker: "b", leaseSeconds: 30) == nil)
        #expect(try await queue.succeed(try #require(c2.lease)) == .applied)
        #expect(try await queue.succeed(try #require(join.lease)) == .applied)
        #expect(try await queue.job(id: id)?.state == .succeeded)
        // Chunks are not compositions: not listed, counted apart.
        #expect(try await queue.list(limit: 10).map(\.id) == [id])
        #expect(try await queue.countByState()[.succeeded] == 1)
        #expect(try await queue.countChunksByState()[.succeeded] == 3)
        #expect(try await queue.chunks(of: id).map(\.chunk) == [0, 1, 2])
    }

    @Test(arguments: QueueBackend.allCases)
    func aFailedChunkIsRetriedAloneAndADeadOneFailsTheComposition(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open(options: Self.quickRetry)
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 3, maxAttempts: 2)
        let c0 = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        let c1 = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(try await queue.succeed(try #require(c1.lease)) == .applied)
        // Chunk 0 fails once: it alone goes back, after the back-off; chunk 1 stays done.
        guard case .retry = try await queue.fail(try #require(c0.lease), error: "x264 hiccup", retryable: true) else {
            Issue.record("chunk 0 was not retried"); return
        }
        #expect(try await queue.job(id: id)?.state == .running)
        let c2 = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(c2.chunk == 2)
        try await Task.sleep(for: .milliseconds(200))
        let again = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        #expect(again.chunk == 0 && again.attempt == 2)
        #expect(try await queue.chunks(of: id).first { $0.chunk == 1 }?.attempt == 1)
        let join = try #require(try await queue.claim(worker: "j", leaseSeconds: 30, joins: true))
        // Out of attempts: the composition fails, naming the chunk; the running chunk and the join are told to stop.
        #expect(try await queue.fail(try #require(again.lease), error: "corrupt frame", retryable: true) == .dead)
        #expect(try await queue.heartbeat(try #require(join.lease), leaseSeconds: 30, progress: 50) == .leaseLost)
        let failed = try #require(try await queue.job(id: id))
        #expect(failed.state == .dead)
        #expect(failed.lastError?.contains("chunk 0 of 3") == true && failed.lastError?.contains("corrupt frame") == true, "\(failed.lastError ?? "")")
        #expect(try await queue.heartbeat(try #require(c2.lease), leaseSeconds: 30, progress: 10) == .cancel)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30) == nil)
    }

    @Test(arguments: QueueBackend.allCases)
    func cancelStopsEveryChunkAndRetryStartsFromThePlan(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 3)
        let c0 = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        // A chunk's id cancels its composition; the waiting composition is cancelled at once.
        #expect(try await queue.cancel(id: c0.id) == .cancelled)
        #expect(try await queue.job(id: id)?.state == .cancelled)
        let chunks = try await queue.chunks(of: id)
        #expect(chunks.filter { $0.state == .cancelled }.count == 2)
        #expect(chunks.first { $0.chunk == 0 }?.cancelRequested == true)
        #expect(try await queue.heartbeat(try #require(c0.lease), leaseSeconds: 30, progress: 10) == .cancel)
        #expect(try await queue.finishCancelled(try #require(c0.lease)) == .applied)
        #expect(try await queue.claim(worker: "b", leaseSeconds: 30) == nil)

        // Retried, it plans again, and its chunks are made anew.
        #expect(try await queue.retry(id: id) == .requeued)
        let plan = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        #expect(plan.id == id && plan.phase == .plan)
        #expect(try await queue.split(try #require(plan.lease), chunks: 2) == .applied)
        #expect(try await queue.chunks(of: id).map(\.state) == [.queued, .queued])
    }

    @Test(arguments: QueueBackend.allCases)
    func aChunkWhoseWorkerDiedIsTakenByAnother(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 1)
        let lost = try #require(try await queue.claim(worker: "killed", leaseSeconds: 0.2))
        try await Task.sleep(for: .milliseconds(400))
        let taken = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(taken.id == lost.id && taken.attempt == 2)
        #expect(try await queue.succeed(try #require(lost.lease)) == .fenced)
        #expect(try await queue.succeed(try #require(taken.lease)) == .applied)
        // A join whose worker died is ready again once its lease has run out.
        let dying = try #require(try await queue.claim(worker: "killed", leaseSeconds: 0.2, joins: true))
        try await Task.sleep(for: .milliseconds(400))
        let join = try #require(try await queue.claim(worker: "b", leaseSeconds: 30, joins: true))
        #expect(join.id == id && join.phase == .join && join.attempt == dying.attempt + 1)
        // A join given back at shutdown is ready again for another worker, not queued as a new composition.
        #expect(try await queue.release(try #require(join.lease)) == .applied)
        let ready = try #require(try await queue.job(id: id))
        #expect(ready.isJoinReady)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30) == nil)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30, joins: true)?.id == id)
    }

    @Test(arguments: QueueBackend.allCases)
    func anEmptySessionGoesStraightToItsJoin(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 0)
        #expect(try await queue.job(id: id)?.isJoinReady == true)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30, joins: true)?.phase == .join)
    }

    @Test(arguments: QueueBackend.allCases)
    func theCompositionsEventsAreToldOnceNotPerChunk(backend: QueueBackend) async throws {
        let (opened, _) = try await backend.open(options: Self.quickRetry)
        let store = try #require(opened as? any SQLJobStore)
        defer { Task { await store.close() } }
        let draft = CompositionDraft(apiKey: "k", requestKey: "r", requestDigest: "r", idempotencyKey: nil, callbackURL: "http://127.0.0.1:9/cb",
                                     capture: "show", layout: "grid", spec: spec(), maxAttempts: 3)
        guard case .created(let composition, _) = try await store.createComposition(draft, outputRoot: try OutputDestination(parsing: "/out", relativeTo: "/")) else {
            Issue.record("not created"); return
        }
        let plan = try #require(try await store.claim(worker: "a", leaseSeconds: 30))
        #expect(plan.id == composition.id && plan.phase == .plan)
        #expect(try await store.split(try #require(plan.lease), chunks: 4) == .applied)
        // Two chunks before the join is taken move its progress; the join's own heartbeats move it after.
        var joinLease: JobLease?
        var done = 0
        while let chunk = try await store.claim(worker: "a", leaseSeconds: 30) {
            #expect(try await store.heartbeat(try #require(chunk.lease), leaseSeconds: 30, progress: 60) == .keepRunning)
            #expect(try await store.succeed(try #require(chunk.lease)) == .applied)
            done += 1
            if done == 2 { joinLease = try #require(try await store.claim(worker: "j", leaseSeconds: 30, joins: true)).lease }
            if let joinLease {
                #expect(try await store.heartbeat(joinLease, leaseSeconds: 30, progress: Double(done) * 24) == .keepRunning)
            }
        }
        // The join fails once and is taken again: the composition does not start a second time.
        guard case .retry = try await store.fail(try #require(joinLease), error: "disk full", retryable: true) else {
            Issue.record("the join was not retried"); return
        }
        try await Task.sleep(for: .milliseconds(200))
        _ = try #require(try await store.claim(worker: "j", leaseSeconds: 30, joins: true))
        let join = try #require(try await store.job(id: composition.id))
        #expect(join.state == .running && join.leaseOwner == "j" && join.phase == .join)
        #expect(try await store.succeed(try #require(join.lease)) == .applied)
        let types = try await store.webhooks(compositionID: composition.id).map(\.type)
        let progress = (1...9).map { _ in "composition.progress" }
        #expect(types == ["composition.queued", "composition.started"] + progress + ["composition.completed"], "\(types)")
        // No chunk has events of its own.
        for chunk in try await store.chunks(of: composition.id) {
            #expect(try await store.webhooks(compositionID: chunk.id).isEmpty)
        }
    }

    @Test(arguments: QueueBackend.allCases)
    func aJoinBackingOffIsRetriedAsAJoinAndFailsWithAChunkDeadMeanwhile(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open(options: QueueOptions(retry: Backoff(baseDelay: 30, maxDelay: 30, jitter: 1...1), random: { 0 }))
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 2)
        let join = try #require(try await queue.claim(worker: "j", leaseSeconds: 30, joins: true))
        let second = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        guard case .retry = try await queue.fail(try #require(join.lease), error: "disk full", retryable: true) else {
            Issue.record("the join was not retried"); return
        }
        #expect(try await queue.job(id: id)?.state == .failed)
        // Retried now by a person: a join again, for a join slot, its progress kept.
        #expect(try await queue.retry(id: id) == .requeued)
        let ready = try #require(try await queue.job(id: id))
        #expect(ready.isJoinReady && ready.progress >= Job.plannedPercent)
        #expect(try await queue.claim(worker: "a", leaseSeconds: 30)?.id != id)
        let again = try #require(try await queue.claim(worker: "j", leaseSeconds: 30, joins: true))
        #expect(again.id == id)
        guard case .retry = try await queue.fail(try #require(again.lease), error: "disk full", retryable: true) else {
            Issue.record("the join was not retried"); return
        }
        // A chunk dies while the join backs off: the composition fails then, not when the join waits for it.
        #expect(try await queue.fail(try #require(second.lease), error: "corrupt", retryable: false) == .dead)
        let failed = try #require(try await queue.job(id: id))
        #expect(failed.state == .dead && failed.lastError?.contains("corrupt") == true, "\(failed.state) \(failed.lastError ?? "")")
        #expect(try await queue.claim(worker: "j", leaseSeconds: 30, joins: true) == nil)
    }

    /// A chunked composition that ended without a worker seeing it (its plan's lease ran out on its last
    /// attempt) keeps its work until an idle worker sweeps it; a live composition's work is never touched.
    @Test(arguments: QueueBackend.allCases)
    func anIdleWorkerSweepsTheWorkOfACompositionThatEndedUnseen(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let directory = try makeTemporaryDirectory(prefix: "stagemix-sweep")
        func enqueue(_ name: String) async throws -> Job {
            let spec = JobSpec(capture: "/captures/\(name)", out: "\(directory)/\(name)", options: ComposeOptions(chunkSeconds: 8))
            let id = try await queue.enqueue(spec, maxAttempts: 1).id
            let job = try #require(try await queue.job(id: id))
            let work = try #require(job.chunkWork)
            try FileManager.default.createDirectory(at: work.local, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: work.local.appendingPathComponent("run.json"))
            return job
        }
        let lost = try await enqueue("lost")
        _ = try #require(try await queue.claim(worker: "killed", leaseSeconds: 0.2))
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await queue.rescueExpiredLeases() == 1)
        #expect(try await queue.job(id: lost.id)?.state == .dead)
        let live = try await enqueue("live")

        var configuration = WorkerConfiguration(workerID: "sweeper", pollInterval: .milliseconds(50), composeCommand: ["/bin/false"])
        configuration.sweepInterval = .zero
        let worker = Worker(queue: queue, configuration: configuration)
        // What an idle worker's join slot does every `sweepInterval`.
        await worker.sweepEndedWork()
        #expect(!FileManager.default.fileExists(atPath: try #require(lost.chunkWork).local.path))
        #expect(FileManager.default.fileExists(atPath: try #require(live.chunkWork).local.path))
        #expect(try await queue.endedChunkedCompositions(withinSeconds: 3600).map(\.id) == [lost.id])
    }
}
