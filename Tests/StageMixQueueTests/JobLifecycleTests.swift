import Foundation
import StageMixTime
import Testing
@testable import StageMixQueue
import StageMixOptions

/// The lifecycle state machine on its own, no database.
@Suite("Job lifecycle")
struct JobLifecycleTests {
    let policy = Backoff(baseDelay: 10, maxDelay: 100, jitter: 0.5...1)

    func queued(maxAttempts: Int = 3) -> Job {
        Job(id: "j", spec: JobSpec(capture: "/c", out: "/o"), maxAttempts: maxAttempts, now: 0)
    }

    @Test func claimStartsAnAttemptWithALease() {
        var job = queued()
        #expect(job.claim(worker: "w", now: 5, leaseSeconds: 30) == .start(JobLease(jobID: "j", attempt: 1, worker: "w")))
        #expect(job.state == .running && job.leaseExpiresAt == 35)
        #expect(job.claim(worker: "x", now: 6, leaseSeconds: 30) == .notClaimable)
    }

    @Test func heartbeatRenewsAndReportsCancellation() {
        var job = queued()
        guard case .start(let lease) = job.claim(worker: "w", now: 0, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.heartbeat(lease, now: 20, leaseSeconds: 30, progress: 150) == .keepRunning)
        #expect(job.leaseExpiresAt == 50 && job.progress == 100)
        #expect(job.requestCancel(now: 21) == .flagged)
        #expect(job.heartbeat(lease, now: 22, leaseSeconds: 30, progress: nil) == .cancel)
        #expect(job.finishCancelled(lease, now: 23) == .applied)
        #expect(job.state == .cancelled)
    }

    @Test func onlyMovingProgressUpdatesTheJob() {
        var job = queued()
        guard case .start(let lease) = job.claim(worker: "w", now: 0, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.heartbeat(lease, now: 2, leaseSeconds: 30, progress: 12) == .keepRunning)
        #expect(job.updatedAt == 2)
        // The lease renewed, progress where it was: not a change a watcher sees, so the time left does not restart.
        #expect(job.heartbeat(lease, now: 4, leaseSeconds: 30, progress: 12) == .keepRunning)
        #expect(job.updatedAt == 2 && job.leaseExpiresAt == 34)
    }

    /// A followed composition's positions: recorded as they move (a watcher's change), left as they were
    /// by a heartbeat without them, kept across its attempts (the next carries on from its chunks) and
    /// cleared when a person starts it over.
    @Test func aFollowedCompositionsPositionsAreKeptAcrossAttemptsAndClearedByARetry() {
        var job = queued()
        guard case .start(let first) = job.claim(worker: "w", now: 0, leaseSeconds: 10) else { Issue.record(); return }
        let early = FollowPosition(recordedSeconds: 12, composedSeconds: 8)
        #expect(job.heartbeat(first, now: 2, leaseSeconds: 10, progress: 0, followPosition: early) == .keepRunning)
        #expect(job.followPosition == early && job.updatedAt == 2 && job.progress == 0)
        #expect(job.heartbeat(first, now: 3, leaseSeconds: 10, progress: nil) == .keepRunning)
        #expect(job.followPosition == early && job.updatedAt == 2)
        let later = FollowPosition(recordedSeconds: 16.5, composedSeconds: 12)
        #expect(job.heartbeat(first, now: 4, leaseSeconds: 10, progress: 0, followPosition: later) == .keepRunning)
        #expect(job.followPosition == later && job.updatedAt == 4)

        // The worker died: the next attempt shows where the first got until it tells its own.
        #expect(job.rescueIfExpired(now: 20) == .requeued)
        guard case .start(let second) = job.claim(worker: "x", now: 21, leaseSeconds: 10) else { Issue.record(); return }
        #expect(job.followPosition == later)
        // The rescued attempt is fenced out: its late positions are not recorded.
        #expect(job.heartbeat(first, now: 22, leaseSeconds: 10, progress: 0, followPosition: FollowPosition(recordedSeconds: 99, composedSeconds: 99))
                == .leaseLost)
        #expect(job.followPosition == later)
        // Cancelled: positions stay where they were, as progress does.
        #expect(job.requestCancel(now: 23) == .flagged)
        #expect(job.heartbeat(second, now: 24, leaseSeconds: 10, progress: 0, followPosition: FollowPosition(recordedSeconds: 30, composedSeconds: 24))
                == .cancel)
        #expect(job.finishCancelled(second, now: 25) == .applied)
        #expect(job.followPosition == later)
        // Started over by a person: its work went when it ended, so nothing is composed yet.
        #expect(job.retryNow(now: 26) == .requeued)
        #expect(job.followPosition == nil)
    }

    @Test func aCancelledJobKeepsItsProgress() {
        var job = queued()
        guard case .start(let lease) = job.claim(worker: "w", now: 0, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.heartbeat(lease, now: 2, leaseSeconds: 30, progress: 12) == .keepRunning)
        #expect(job.requestCancel(now: 5) == .flagged)
        // The child finished anyway and the worker reports 100 before publishing: the job does not claim it.
        #expect(job.heartbeat(lease, now: 6, leaseSeconds: 30, progress: 100) == .cancel)
        #expect(job.finishCancelled(lease, now: 7) == .applied)
        #expect(job.state == .cancelled && job.progress == 12)
    }

    @Test func failureBacksOffExponentiallyWithJitterThenDies() {
        var job = queued(maxAttempts: 3)
        var delays: [Double] = []
        for attempt in 1...3 {
            guard case .start(let lease) = job.claim(worker: "w", now: job.runAfter, leaseSeconds: 30) else { Issue.record(); return }
            let start = job.runAfter
            let action = job.fail(lease, error: "e\(attempt)", retryable: true, now: start, policy: policy, random: 0.5)
            if case .retry(let at) = action { delays.append(at - start) } else { #expect(action == .dead) }
        }
        // 10 s then 20 s nominal, each cut by a quarter (jitter 0.5 × random 0.5).
        #expect(delays == [7.5, 15])
        #expect(job.state == .dead && job.lastError == "e3" && job.attempt == 3)
    }

    @Test func aFullDiskBacksOffPastItsAttemptsAndIsNeverDead() {
        var job = queued(maxAttempts: 2)
        var delays: [Double] = []
        let errors = ["no space left on device: cannot write /srv/out/.o.stagemix-1/hls/segment_00003.ts",
                      "not enough space on device for the output: about 120 MB needed, 3.1 MB free in /srv/out (--no-space-check composes anyway)"]
        for attempt in 1...6 {
            guard case .start(let lease) = job.claim(worker: "w", now: job.runAfter, leaseSeconds: 30) else { Issue.record(); return }
            let start = job.runAfter
            let action = job.fail(lease, error: errors[attempt % 2], retryable: true, now: start, policy: policy, random: 0.5)
            guard case .retry(let at) = action else { Issue.record("attempt \(attempt): \(action)"); return }
            delays.append(at - start)
        }
        #expect(job.state == .failed && job.attempt == 6)
        #expect(delays == [7.5, 15, 30, 60, 75, 75], "backing off to the cap, as any failure does")
        // Any other failure once the attempts are spent ends it, as before.
        guard case .start(let lease) = job.claim(worker: "w", now: job.runAfter, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.fail(lease, error: "compose failed (exit 70): internal error", retryable: true, now: job.runAfter, policy: policy, random: 0) == .dead)
    }

    @Test func theWorkersOwnFullDiskIsSaidAsComposeSaysIt() {
        let full = CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: "/srv/work/chunk-00002/video.nut"])
        let said = AttemptRun.failure("cannot put chunk 2 in place at /srv/work", full)
        #expect(said == "no space left on device: cannot write /srv/work/chunk-00002/video.nut (cannot put chunk 2 in place at /srv/work)")
        #expect(ComposeChild.Failure(error: said)?.isFullDisk == true)
        #expect(AttemptRun.failure("publish failed", CocoaError(.fileWriteNoPermission)).hasPrefix("publish failed: "))
    }

    @Test func backOffIsCapped() {
        #expect(policy.delay(afterAttempt: 20, random: 0) == 100)
        #expect(policy.delay(afterAttempt: 1, random: 0.999) > 5)
    }

    @Test func notRetryableFailureIsDeadAtOnce() {
        var job = queued(maxAttempts: 5)
        guard case .start(let lease) = job.claim(worker: "w", now: 0, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.fail(lease, error: "bad input", retryable: false, now: 1, policy: policy, random: 0) == .dead)
    }

    @Test func expiredLeaseRequeuesCountingTheAttempt() {
        var job = queued(maxAttempts: 2)
        guard case .start(let first) = job.claim(worker: "a", now: 0, leaseSeconds: 10) else { Issue.record(); return }
        #expect(job.rescueIfExpired(now: 5) == .notExpired)
        #expect(job.rescueIfExpired(now: 11) == .requeued)
        #expect(job.state == .queued && job.attempt == 1 && job.leaseOwner == nil)
        // The rescued attempt is fenced out of every write.
        #expect(job.heartbeat(first, now: 12, leaseSeconds: 10, progress: 1) == .leaseLost)
        #expect(job.succeed(first, now: 12) == .fenced)

        guard case .start(let second) = job.claim(worker: "b", now: 12, leaseSeconds: 10) else { Issue.record(); return }
        #expect(second.attempt == 2)
        #expect(job.succeed(first, now: 13) == .fenced)
        // Out of attempts: a second lost lease kills the job.
        #expect(job.rescueIfExpired(now: 30) == .dead)
    }

    @Test func releaseGivesTheAttemptBack() {
        var job = queued()
        guard case .start(let lease) = job.claim(worker: "w", now: 0, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.release(lease, now: 1) == .applied)
        #expect(job.state == .queued && job.attempt == 0)
        #expect(job.release(lease, now: 2) == .fenced)
    }

    @Test func cancelQueuedIsImmediateAndFinishedJobsStayFinished() {
        var job = queued()
        #expect(job.requestCancel(now: 1) == .cancelled)
        #expect(job.requestCancel(now: 2) == .alreadyFinished)
        #expect(job.retryNow(now: 3) == .requeued)
        #expect(job.state == .queued)
        #expect(job.retryNow(now: 4) == .notRetryable)
    }
}
