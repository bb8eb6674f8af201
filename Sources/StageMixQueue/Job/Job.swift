/// One compose job as the queue stores it. Times are seconds since 1970 on the queue's clock
/// (the PostgreSQL server's clock for PostgreSQL, the local clock for SQLite).
public struct Job: Sendable, Hashable {
    public var id: String
    public var spec: JobSpec
    public var dedupeKey: String
    public var state: JobState
    /// Attempts started and counted; a released attempt (worker shut down) is given back.
    public var attempt: Int
    public var maxAttempts: Int
    /// Worker holding the running attempt's lease, and when that lease runs out.
    public var leaseOwner: String?
    public var leaseExpiresAt: Double?
    /// A queued or failed job is not claimed before this time (retry back-off).
    public var runAfter: Double
    public var progress: Double
    public var lastError: String?
    /// Set on a running job by `cancel`; the worker's heartbeat sees it and stops the child.
    public var cancelRequested: Bool
    public var createdAt: Double
    /// When the job last changed as a watcher sees it: its state, its progress, a cancel asked for
    /// (renewing the lease is not such a change).
    public var updatedAt: Double

    public init(id: String, spec: JobSpec, maxAttempts: Int, now: Double) {
        self.id = id
        self.spec = spec
        self.dedupeKey = spec.dedupeKey
        self.state = .queued
        self.attempt = 0
        self.maxAttempts = maxAttempts
        self.leaseOwner = nil
        self.leaseExpiresAt = nil
        self.runAfter = now
        self.progress = 0
        self.lastError = nil
        self.cancelRequested = false
        self.createdAt = now
        self.updatedAt = now
    }

    /// The lease of the running attempt, if any.
    public var lease: JobLease? {
        guard state == .running, let leaseOwner else { return nil }
        return JobLease(jobID: id, attempt: attempt, worker: leaseOwner)
    }
}
