import Foundation

/// The queue operations, written once for both backends: load the rows under a lock, apply
/// the lifecycle event, write back fenced on what was read.
extension SQLJobStore {
    public func enqueue(_ spec: JobSpec, maxAttempts: Int) async throws -> EnqueueResult {
        let normalised = spec.normalised()
        return try await transaction { tx in
            let job = Job(id: Self.newJobID(), spec: normalised, maxAttempts: maxAttempts, now: tx.now)
            let (sql, binds) = JobSQL.insert(job)
            if try await !tx.query(sql, binds).isEmpty {
                try await tx.notifyWorkAvailable()
                return EnqueueResult(id: job.id, created: true)
            }
            let existing = try await tx.query(
                "SELECT id FROM stagemix_jobs WHERE dedupe_key = $1 AND state IN (\(JobSQL.activeStates))",
                [.text(job.dedupeKey)]
            )
            guard let id = existing.first?["id"]?.string else {
                throw QueueError(.duplicateActiveJob, "job with key \(job.dedupeKey) conflicted but cannot be found")
            }
            return EnqueueResult(id: id, created: false)
        }
    }

    public func claim(worker: String, leaseSeconds: Double, joins: Bool) async throws -> Job? {
        let skipLocked = lockRowsSkippingLocked
        let lock = lockRows
        // A join (ready, or failed and backing off) is for a worker's join slot; anything else for its compose slots.
        // A chunked composition's session audio goes first, whenever it is due (a rescued one too): its join
        // needs it before its first chunk, and it is small beside what it would wait behind.
        let which = joins
            ? "((state = 'running' AND lease_owner IS NULL) OR state = 'failed') AND phase = 'join'"
            : "state IN ('queued', 'failed') AND (phase IS NULL OR phase <> 'join')"
        return try await transaction { tx in
            _ = try await Self.rescue(in: tx, lock: skipLocked, rowLock: lock)
            let rows = try await tx.query(
                """
                SELECT \(JobSQL.columns) FROM stagemix_jobs
                WHERE \(which) AND run_after <= $1 AND cancel_requested = 0
                ORDER BY CASE WHEN chunk = \(Job.sessionAudioChunk) THEN 0 ELSE 1 END, run_after, created_at, chunk LIMIT 1\(skipLocked)
                """,
                [.real(tx.now)]
            )
            guard let row = rows.first else { return nil }
            let old = try JobSQL.decode(row)
            var job = old
            if job.isJoin {
                // A chunk that died while the join was backing off fails the composition now, rather than the join wait for it.
                job.settle(chunks: try await Self.chunks(of: job.id, in: tx), now: tx.now)
                if job.state.isFinal {
                    _ = try await Self.write(job, over: old, in: tx, lock: lock)
                    return nil
                }
            }
            guard case .start = job.claim(worker: worker, now: tx.now, leaseSeconds: leaseSeconds) else { return nil }
            return try await Self.write(job, over: old, in: tx, lock: lock) ? job : nil
        }
    }

    public func rescueExpiredLeases() async throws -> Int {
        let skipLocked = lockRowsSkippingLocked
        let lock = lockRows
        return try await transaction { tx in try await Self.rescue(in: tx, lock: skipLocked, rowLock: lock) }
    }

    public func heartbeat(_ lease: JobLease, leaseSeconds: Double, progress: Double?, followPosition: FollowPosition?) async throws
        -> Job.HeartbeatAction {
        try await change(lease.jobID, missing: .leaseLost) { job, now in
            job.heartbeat(lease, now: now, leaseSeconds: leaseSeconds, progress: progress, followPosition: followPosition)
        }
    }

    public func succeed(_ lease: JobLease) async throws -> Job.FenceResult {
        try await change(lease.jobID, missing: .fenced) { job, now in job.succeed(lease, now: now) }
    }

    public func fail(_ lease: JobLease, error: String, retryable: Bool) async throws -> Job.FailAction {
        let policy = options.retry
        let random = options.random()
        return try await change(lease.jobID, missing: .fenced) { job, now in
            job.fail(lease, error: error, retryable: retryable, now: now, policy: policy, random: random)
        }
    }

    public func finishCancelled(_ lease: JobLease) async throws -> Job.FenceResult {
        try await change(lease.jobID, missing: .fenced) { job, now in job.finishCancelled(lease, now: now) }
    }

    public func release(_ lease: JobLease) async throws -> Job.FenceResult {
        try await change(lease.jobID, missing: .fenced, notify: true) { job, now in job.release(lease, now: now) }
    }

    /// A chunk's id cancels its composition: a composition is cancelled whole, every chunk with it.
    public func cancel(id: String) async throws -> Job.CancelAction {
        let composition = try await compositionJobID(of: id)
        return try await change(composition, missing: nil) { job, now in job.requestCancel(now: now) }
    }

    /// A chunk's id retries its composition, from its plan when it is dead or cancelled.
    public func retry(id: String) async throws -> Job.RetryAction {
        let composition = try await compositionJobID(of: id)
        do {
            return try await change(composition, missing: nil, notify: true) { job, now in job.retryNow(now: now) }
        } catch let error as QueueError {
            throw error
        } catch {
            // The only constraint a retry can break is the one-active-job-per-spec index.
            throw QueueError(.duplicateActiveJob, "job \(id) cannot be retried while another job with the same spec is active (\(error))")
        }
    }

    public func job(id: String) async throws -> Job? {
        try await read("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1", [.text(id)]).first.map(JobSQL.decode)
    }

    public func list(limit: Int) async throws -> [Job] {
        try await read(
            "SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE parent_id IS NULL ORDER BY created_at DESC, id LIMIT $1", [.integer(limit)]
        ).map(JobSQL.decode)
    }

    public func countByState() async throws -> [JobState: Int] {
        try await countStates(where: "parent_id IS NULL")
    }

    /// How many of the rows `condition` picks are in each state (every state present, zero when none).
    func countStates(where condition: String) async throws -> [JobState: Int] {
        var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for row in try await read("SELECT state, COUNT(*) AS n FROM stagemix_jobs WHERE \(condition) GROUP BY state", []) {
            guard let state = row["state"]?.string.flatMap(JobState.init(rawValue:)), let n = row["n"]?.int else {
                throw QueueError(.corruptRow, "unexpected state count row \(row)")
            }
            counts[state] = n
        }
        return counts
    }

    static func newJobID() -> String {
        UUID().uuidString.lowercased()
    }

    /// Loads job `id` locked, applies `event`, writes it back if it changed. `missing` is what a
    /// missing job (or a lost race on the fenced write) means; nil makes it an error.
    private func change<Action: Sendable>(
        _ id: String, missing: Action?, notify: Bool = false,
        _ event: @escaping @Sendable (inout Job, Double) -> Action
    ) async throws -> Action {
        let lock = lockRows
        return try await transaction { tx in
            // A chunk's composition is locked first, as every change of a composition locks it before its chunks.
            try await Self.lockParent(of: id, in: tx, lock: lock)
            let rows = try await tx.query("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1\(lock)", [.text(id)])
            guard let row = rows.first else {
                if let missing { return missing }
                throw QueueError(.noSuchJob, "no job \(id)")
            }
            let old = try JobSQL.decode(row)
            var job = old
            let action = event(&job, tx.now)
            if job != old {
                guard try await Self.write(job, over: old, in: tx, lock: lock) else {
                    if let missing { return missing }
                    throw QueueError(.noSuchJob, "job \(id) changed under us")
                }
                if notify { try await tx.notifyWorkAvailable() }
            }
            return action
        }
    }

    /// Writes `job` over `old` if the row is still `old`; a composition's events are recorded, and what
    /// a chunk's change means for its composition (and a composition's for its chunks) follows in the same transaction.
    /// `lock` is the dialect's row lock for the rows this pulls in (a chunk's composition, a composition's chunks).
    static func write(_ job: Job, over old: Job, in tx: any SQLJobTransaction, lock: String) async throws -> Bool {
        let (sql, binds) = JobSQL.update(job, over: old)
        guard try await !tx.query(sql, binds).isEmpty else { return false }
        try await CompositionEvent.record(from: old, to: job, in: tx)
        // A chunk that ended or moved settles its composition (not one merely claimed: that changes nothing there).
        if let parent = job.parentID, (job.state != old.state && job.state != .running) || job.progress != old.progress {
            try await settle(parent, in: tx, lock: lock)
        }
        if job.phase != nil, job.state != old.state || job.cancelRequested != old.cancelRequested {
            try await stopChunks(of: job, in: tx, lock: lock)
        }
        return true
    }

    /// Puts back what expired. A chunk's composition is locked before the chunk, as everywhere else, so
    /// that a rescue and a cancel of the same composition never wait for each other.
    private static func rescue(in tx: any SQLJobTransaction, lock: String, rowLock: String) async throws -> Int {
        let expired = try await tx.query(
            "SELECT id, parent_id FROM stagemix_jobs WHERE state = 'running' AND lease_expires_at < $1", [.real(tx.now)])
        var rescued = 0
        for candidate in expired {
            guard let id = candidate["id"]?.string else { continue }
            if let parent = candidate["parent_id"]?.string, !rowLock.isEmpty {
                _ = try await tx.query("SELECT id FROM stagemix_jobs WHERE id = $1\(rowLock)", [.text(parent)])
            }
            // Another claimer may have rescued it meanwhile (or hold it): then it is not this one's to rescue.
            guard let row = try await tx.query(
                "SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1 AND state = 'running' AND lease_expires_at < $2\(lock)",
                [.text(id), .real(tx.now)]).first else { continue }
            let old = try JobSQL.decode(row)
            var job = old
            if job.rescueIfExpired(now: tx.now) != .notExpired, try await write(job, over: old, in: tx, lock: rowLock) {
                rescued += 1
            }
        }
        return rescued
    }
}
