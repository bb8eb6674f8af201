public import StageMixTime
import StageMixOptions
/// The job lifecycle as a value-type state machine: each event is a `mutating` function that
/// changes the record and says what happened. Both queue backends load a locked row, apply
/// one of these, and write the row back, so the rules live here once and are tested without
/// a database.
extension Job {
    public enum ClaimAction: Sendable, Equatable {
        case start(JobLease)
        case notClaimable
    }

    public enum HeartbeatAction: Sendable, Equatable {
        case keepRunning
        /// Someone asked to cancel: kill the child, remove partial output, report `cancelled`.
        case cancel
        /// The attempt no longer holds the lease (rescued, or finished by someone else): stop, publish nothing.
        case leaseLost
    }

    public enum FenceResult: Sendable, Equatable {
        case applied
        /// The write named a lease the job no longer has; nothing changed.
        case fenced
    }

    public enum FailAction: Sendable, Equatable {
        case retry(at: Double)
        case dead
        case cancelled
        case fenced
    }

    public enum RescueAction: Sendable, Equatable {
        case requeued
        case dead
        case cancelled
        case notExpired
    }

    public enum CancelAction: Sendable, Equatable {
        /// The job was not running: it is cancelled now.
        case cancelled
        /// The job is running: flagged; its worker sees the flag within a second and stops it.
        case flagged
        case alreadyFinished
    }

    public enum RetryAction: Sendable, Equatable {
        case requeued
        case notRetryable
    }

    public func holds(_ lease: JobLease) -> Bool {
        state == .running && attempt == lease.attempt && leaseOwner == lease.worker && id == lease.jobID
    }

    public mutating func claim(worker: String, now: Double, leaseSeconds: Double) -> ClaimAction {
        guard state == .queued || state == .failed || isJoinReady, runAfter <= now, !cancelRequested else { return .notClaimable }
        attempt += 1
        startedAt = startedAt ?? now
        state = .running
        leaseOwner = worker
        leaseExpiresAt = now + leaseSeconds
        // A chunked composition's join goes on from where its chunks took it.
        if phase != .join { progress = 0 }
        updatedAt = now
        return .start(JobLease(jobID: id, attempt: attempt, worker: worker))
    }

    /// Renews the lease and records progress, and a followed composition's positions (nil leaves them as
    /// they were). Once a cancel is asked for, both stay where they were (a child that finished anyway
    /// does not make a cancelled job claim 100 %).
    public mutating func heartbeat(_ lease: JobLease, now: Double, leaseSeconds: Double, progress: Double?,
                                   followPosition: FollowPosition? = nil) -> HeartbeatAction {
        guard holds(lease) else { return .leaseLost }
        leaseExpiresAt = now + leaseSeconds
        if cancelRequested { return .cancel }
        // A chunked composition's progress never goes back: its chunks moved it before its join told its own.
        let told = progress.map { phase == nil ? min(100, max(0, $0)) : min(100, max(self.progress, $0)) }
        if let told, told != self.progress {
            self.progress = told
            // `updatedAt` is when the job last changed as a watcher sees it, which the time left is reckoned
            // from (``TimeLeftEstimate``); renewing the lease alone is not such a change.
            updatedAt = now
        }
        if let followPosition, followPosition != self.followPosition {
            self.followPosition = followPosition
            updatedAt = now
        }
        return .keepRunning
    }

    public mutating func succeed(_ lease: JobLease, now: Double) -> FenceResult {
        guard holds(lease) else { return .fenced }
        state = .succeeded
        progress = 100
        lastError = nil
        endLease(now: now)
        return .applied
    }

    /// A failed attempt: retried after a back-off unless it is not `retryable` (bad input) or out of attempts.
    /// A full disk (an `error` that begins with compose's words for one) is the machine's fault, not the
    /// job's: retried after a back-off however many attempts it took, so that the job is composed once
    /// there is room rather than given up as dead while an operator frees it.
    public mutating func fail(
        _ lease: JobLease, error: String, retryable: Bool, now: Double, policy: Backoff, random: Double
    ) -> FailAction {
        guard holds(lease) else { return .fenced }
        lastError = error
        endLease(now: now)
        if cancelRequested {
            state = .cancelled
            return .cancelled
        }
        let fullDisk = ComposeChild.Failure(error: error)?.isFullDisk == true
        if !retryable || (attemptsUsed >= maxAttempts && !fullDisk) {
            state = .dead
            return .dead
        }
        state = .failed
        runAfter = now + policy.delay(afterAttempt: attempt, random: random)
        return .retry(at: runAfter)
    }

    /// The worker stopped the attempt because cancellation was asked for.
    public mutating func finishCancelled(_ lease: JobLease, now: Double) -> FenceResult {
        guard holds(lease) else { return .fenced }
        state = .cancelled
        endLease(now: now)
        return .applied
    }

    /// The worker gives the job back unfinished (shutting down): queued again, attempt not counted.
    public mutating func release(_ lease: JobLease, now: Double) -> FenceResult {
        guard holds(lease) else { return .fenced }
        attempt -= 1
        // A join given back is ready again: still `running`, held by nobody (``isJoinReady``).
        state = cancelRequested ? .cancelled : phase == .join ? .running : .queued
        // Queued again, it shows what a queued job shows: no progress of an attempt that is gone (a join's is
        // its chunks', which stay done). A cancelled one keeps the progress it had reached, as a cancel does.
        if state == .queued { progress = 0 }
        runAfter = now
        endLease(now: now)
        return .applied
    }

    /// A running job whose lease ran out (its worker died or hung) goes back to the queue;
    /// the lost attempt counts.
    public mutating func rescueIfExpired(now: Double) -> RescueAction {
        guard state == .running, let expiry = leaseExpiresAt, expiry < now else { return .notExpired }
        lastError = "attempt \(attempt) lost: lease of worker \(leaseOwner ?? "?") expired"
        endLease(now: now)
        if cancelRequested {
            state = .cancelled
            return .cancelled
        }
        if attemptsUsed >= maxAttempts {
            state = .dead
            return .dead
        }
        state = phase == .join ? .running : .queued
        runAfter = now
        return .requeued
    }

    public mutating func requestCancel(now: Double) -> CancelAction {
        switch state {
        case .queued, .failed:
            state = .cancelled
            updatedAt = now
            return .cancelled
        case .running where leaseOwner == nil:
            // A chunked composition between its phases: nobody holds it, so nobody else would stop it.
            state = .cancelled
            updatedAt = now
            return .cancelled
        case .running:
            if !cancelRequested {
                cancelRequested = true
                updatedAt = now
            }
            return .flagged
        case .succeeded, .cancelled, .dead:
            return .alreadyFinished
        }
    }

    /// Asked for by a person: a dead or cancelled job starts over with fresh attempts;
    /// a failed one waiting for its back-off runs now.
    public mutating func retryNow(now: Double) -> RetryAction {
        switch state {
        case .dead, .cancelled:
            attempt = 0
            // A chunked composition starts over from its plan (its chunks are made again).
            if phase != nil { phase = .plan }
            // A followed one from nothing: its work went when it ended.
            followPosition = nil
        case .failed where phase == .join:
            // A join backing off is ready again at once, where its chunks left the composition.
            state = .running
            runAfter = now
            updatedAt = now
            return .requeued
        case .failed:
            break
        case .queued, .running, .succeeded:
            return .notRetryable
        }
        state = .queued
        cancelRequested = false
        runAfter = now
        progress = 0
        updatedAt = now
        return .requeued
    }

    private mutating func endLease(now: Double) {
        leaseOwner = nil
        leaseExpiresAt = nil
        updatedAt = now
    }
}
