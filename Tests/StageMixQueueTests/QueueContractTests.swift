import StageMixTime
import Foundation
import Testing
import StageMixOptions
@testable import StageMixQueue
import StageMixQueueTestSupport

/// The same contract, run against a real SQLite file and a real PostgreSQL server.
@Suite("JobQueue contract")
struct QueueContractTests {
    /// Back-off long enough that a loaded CI machine cannot let it pass between two statements.
    static let noJitter = QueueOptions(retry: Backoff(baseDelay: 1.5, maxDelay: 10, jitter: 1...1), random: { 0 })

    func spec(_ name: String = UUID().uuidString) -> JobSpec {
        JobSpec(capture: "/captures/\(name)", out: "/out/\(name)", options: ComposeOptions(layout: "grid", resolution: "1280x720", fps: 30))
    }

    @Test(arguments: QueueBackend.allCases)
    func enqueueClaimComplete(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let enqueued = try await queue.enqueue(spec(), maxAttempts: 5)
        #expect(enqueued.created)

        let claimed = try #require(try await queue.claim(worker: "w1", leaseSeconds: 30))
        #expect(claimed.id == enqueued.id)
        #expect(claimed.state == .running)
        #expect(claimed.attempt == 1)
        #expect(claimed.leaseOwner == "w1")
        #expect(try await queue.claim(worker: "w2", leaseSeconds: 30) == nil)

        let lease = try #require(claimed.lease)
        #expect(try await queue.succeed(lease) == .applied)
        let done = try #require(try await queue.job(id: enqueued.id))
        #expect(done.state == .succeeded)
        #expect(done.progress == 100)
        #expect(done.leaseOwner == nil)
        #expect(try await queue.claim(worker: "w1", leaseSeconds: 30) == nil)
    }

    @Test(arguments: QueueBackend.allCases)
    func countsJobsByState(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        #expect(try await queue.countByState() == Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) }))
        for _ in 0..<3 { _ = try await queue.enqueue(spec(), maxAttempts: 5) }
        let done = try #require(try await queue.claim(worker: "w", leaseSeconds: 30))
        #expect(try await queue.succeed(try #require(done.lease)) == .applied)
        _ = try #require(try await queue.claim(worker: "w", leaseSeconds: 30))
        let counts = try await queue.countByState()
        #expect(counts[.queued] == 1 && counts[.running] == 1 && counts[.succeeded] == 1, "\(counts)")
        #expect(counts[.failed] == 0 && counts[.dead] == 0 && counts[.cancelled] == 0, "\(counts)")
    }

    @Test(arguments: QueueBackend.allCases)
    func duplicateEnqueueReturnsTheActiveJob(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let first = try await queue.enqueue(JobSpec(capture: "/c/show", out: "/o/show", options: ComposeOptions(preset: "Fast")), maxAttempts: 5)
        // Same spec written differently: redundant path parts, upper-case option word.
        let again = try await queue.enqueue(JobSpec(capture: "/c/./x/../show/", out: "/o/show", options: ComposeOptions(preset: "fast")), maxAttempts: 5)
        #expect(again == EnqueueResult(id: first.id, created: false))
        let other = try await queue.enqueue(JobSpec(capture: "/c/show", out: "/o/show", options: ComposeOptions(preset: "slow")), maxAttempts: 5)
        #expect(other.created && other.id != first.id)

        // While running it is still the same job; once finished, the spec can be queued anew.
        var lease: JobLease?
        while let job = try await queue.claim(worker: "w", leaseSeconds: 30) {
            if job.id == first.id { lease = job.lease }
        }
        #expect(try await queue.enqueue(JobSpec(capture: "/c/show", out: "/o/show", options: ComposeOptions(preset: "fast")), maxAttempts: 5).id == first.id)
        #expect(try await queue.succeed(try #require(lease)) == .applied)
        let fresh = try await queue.enqueue(JobSpec(capture: "/c/show", out: "/o/show", options: ComposeOptions(preset: "fast")), maxAttempts: 5)
        #expect(fresh.created && fresh.id != first.id)
    }

    @Test(arguments: QueueBackend.allCases)
    func expiredLeaseIsRescuedAndTheStaleAttemptIsFenced(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await queue.enqueue(spec(), maxAttempts: 5).id
        let claimedAt = ContinuousClock.now
        let first = try #require(try await queue.claim(worker: "dies", leaseSeconds: 3))
        let staleLease = try #require(first.lease)
        // Within its lease nobody else gets the job. A machine so loaded that two statements take longer
        // than the lease (a CI run once did) sees it lapse here already: that is the rescue, found early.
        var rescued = try await queue.claim(worker: "other", leaseSeconds: 30)
        if rescued != nil {
            #expect(ContinuousClock.now - claimedAt >= .seconds(3), "claimed again within the first attempt's lease")
        } else {
            try await Task.sleep(for: .milliseconds(3_300))
            rescued = try await queue.claim(worker: "other", leaseSeconds: 30)
        }
        let second = try #require(rescued)
        #expect(second.id == id)
        #expect(second.attempt == 2)
        #expect(second.lastError?.contains("lease") == true)
        let freshLease = try #require(second.lease)

        // The worker that lost its lease can neither renew, finish, fail, nor release the job.
        #expect(try await queue.heartbeat(staleLease, leaseSeconds: 30, progress: 99) == .leaseLost)
        #expect(try await queue.succeed(staleLease) == .fenced)
        #expect(try await queue.fail(staleLease, error: "late", retryable: true) == .fenced)
        #expect(try await queue.release(staleLease) == .fenced)
        let stillRunning = try #require(try await queue.job(id: id))
        #expect(stillRunning.state == .running && stillRunning.attempt == 2 && stillRunning.progress == 0)

        #expect(try await queue.succeed(freshLease) == .applied)
        #expect(try await queue.job(id: id)?.state == .succeeded)
    }

    @Test(arguments: QueueBackend.allCases)
    func failuresBackOffThenTheJobIsDead(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open(options: Self.noJitter)
        defer { Task { await queue.close() } }
        let id = try await queue.enqueue(spec(), maxAttempts: 3).id

        // A claim made once the back-off had passed (the test held up that long on a loaded machine) is the next attempt's.
        var early: Job?
        for attempt in 1...3 {
            var claimed: Job? = early
            early = nil
            let deadline = Date().addingTimeInterval(60)
            while claimed == nil {
                claimed = try await queue.claim(worker: "w", leaseSeconds: 30)
                if claimed == nil {
                    guard Date() < deadline else { Issue.record("attempt \(attempt) was never claimed"); return }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let job = try #require(claimed)
            #expect(job.attempt == attempt)
            let action = try await queue.fail(try #require(job.lease), error: "boom \(attempt)", retryable: true)
            if attempt < 3 {
                guard case .retry = action else { Issue.record("expected a retry, got \(action)"); return }
                let failed = try #require(try await queue.job(id: id))
                #expect(failed.state == .failed)
                // Back-off 1.5 s, then 3 s (no jitter), from the moment of the failure.
                #expect(abs(failed.runAfter - failed.updatedAt - 1.5 * Double(attempt)) < 0.001)
                if let soon = try await queue.claim(worker: "w", leaseSeconds: 30) {
                    #expect(Date().timeIntervalSince1970 >= failed.runAfter - 0.01, "claimed before the back-off")
                    early = soon
                }
            } else {
                #expect(action == .dead)
            }
        }
        let dead = try #require(try await queue.job(id: id))
        #expect(dead.state == .dead)
        #expect(dead.lastError == "boom 3")
        #expect(dead.attempt == 3)
        #expect(try await queue.claim(worker: "w", leaseSeconds: 30) == nil)

        // A person can bring it back.
        #expect(try await queue.retry(id: id) == .requeued)
        #expect(try await queue.claim(worker: "w", leaseSeconds: 30)?.attempt == 1)
    }

    @Test(arguments: QueueBackend.allCases)
    func badInputIsDeadAtOnce(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await queue.enqueue(spec(), maxAttempts: 5).id
        let job = try #require(try await queue.claim(worker: "w", leaseSeconds: 30))
        #expect(try await queue.fail(try #require(job.lease), error: "bad input (exit status 65)", retryable: false) == .dead)
        #expect(try await queue.job(id: id)?.state == .dead)
    }

    @Test(arguments: QueueBackend.allCases)
    func cancelQueuedAndRunning(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let queued = try await queue.enqueue(spec(), maxAttempts: 5).id
        #expect(try await queue.cancel(id: queued) == .cancelled)
        #expect(try await queue.job(id: queued)?.state == .cancelled)
        #expect(try await queue.claim(worker: "w", leaseSeconds: 30) == nil)
        #expect(try await queue.cancel(id: queued) == .alreadyFinished)

        let running = try await queue.enqueue(spec(), maxAttempts: 5).id
        let lease = try #require(try await queue.claim(worker: "w", leaseSeconds: 30)?.lease)
        #expect(try await queue.cancel(id: running) == .flagged)
        #expect(try await queue.job(id: running)?.state == .running)
        #expect(try await queue.heartbeat(lease, leaseSeconds: 30, progress: 10) == .cancel)
        #expect(try await queue.finishCancelled(lease) == .applied)
        let cancelled = try #require(try await queue.job(id: running))
        #expect(cancelled.state == .cancelled && cancelled.leaseOwner == nil)

        await #expect(throws: QueueError.self) { try await queue.cancel(id: "no-such-job") }
    }

    @Test(arguments: QueueBackend.allCases)
    func progressAndRelease(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await queue.enqueue(spec(), maxAttempts: 5).id
        let lease = try #require(try await queue.claim(worker: "w", leaseSeconds: 30)?.lease)
        #expect(try await queue.heartbeat(lease, leaseSeconds: 30, progress: 42.5) == .keepRunning)
        #expect(try await queue.job(id: id)?.progress == 42.5)
        #expect(try await queue.list(limit: 10).map(\.progress) == [42.5])

        // A followed composition's positions are stored beside its progress, and a heartbeat without them leaves them.
        let position = FollowPosition(recordedSeconds: 12.345, composedSeconds: 8)
        #expect(try await queue.heartbeat(lease, leaseSeconds: 30, progress: 42.5, followPosition: position) == .keepRunning)
        #expect(try await queue.job(id: id)?.followPosition == position)
        #expect(try await queue.heartbeat(lease, leaseSeconds: 30, progress: 42.5) == .keepRunning)
        #expect(try await queue.list(limit: 10).map(\.followPosition) == [position])

        // Released at shutdown: queued again, the attempt not counted.
        #expect(try await queue.release(lease) == .applied)
        let released = try #require(try await queue.job(id: id))
        #expect(released.state == .queued && released.attempt == 0)
        #expect(try await queue.claim(worker: "w2", leaseSeconds: 30)?.attempt == 1)
    }

    @Test(arguments: QueueBackend.allCases)
    func concurrentClaimersNeverShareAJob(backend: QueueBackend) async throws {
        let url = try await backend.makeURL()
        let setup = try await QueueURL(url).open()
        for i in 0..<30 { _ = try await setup.enqueue(spec("job\(i)"), maxAttempts: 5) }
        // Separate connections, as separate worker processes would have.
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for w in 0..<6 {
                group.addTask {
                    let queue = try await QueueURL(url).open()
                    var mine: [String] = []
                    while let job = try await queue.claim(worker: "w\(w)", leaseSeconds: 30) { mine.append(job.id) }
                    await queue.close()
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 30)
        #expect(Set(claimed).count == 30)
        await setup.close()
    }
}
