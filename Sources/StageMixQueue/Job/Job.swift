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
    /// A chunked composition's job (its spec has `chunkSeconds`): which of its phases is next or under way.
    /// Nil for a job composed whole, and for a chunk.
    public var phase: ChunkPhase?
    /// A chunk's composition job, and the chunk's place in it (0, 1, ...); nil for any other job.
    public var parentID: String?
    public var chunk: Int?
    /// When a worker first took the job: its wait in the queue is this less `createdAt`.
    public var startedAt: Double?
    /// A followed composition's recorded and composed positions, as its attempt last told them; nil
    /// before the first, and for any other job. Kept across its attempts: the next one carries on from
    /// the chunks already made, and tells its own within a second or two of starting.
    public var followPosition: FollowPosition?

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
        // A followed composition encodes its chunks itself as the session is recorded: one job, no phases.
        self.phase = spec.options.chunkSeconds == nil || spec.options.follow == true ? nil : .plan
        self.parentID = nil
        self.chunk = nil
        self.startedAt = nil
        self.followPosition = nil
    }

    /// Chunk `index` of the chunked composition `parent`: the same spec, its own attempts, and the
    /// composition's place in the queue (its `runAfter` is when the composition was queued).
    public init(chunk index: Int, of parent: Job, now: Double) {
        self.init(id: String(format: "%@-%05d", parent.id, index), spec: parent.spec, maxAttempts: parent.maxAttempts, now: now)
        dedupeKey = parent.dedupeKey + String(format: "/chunk-%05d", index)
        phase = nil
        parentID = parent.id
        chunk = index
        runAfter = parent.createdAt
    }

    /// The lease of the running attempt, if any.
    public var lease: JobLease? {
        guard state == .running, let leaseOwner else { return nil }
        return JobLease(jobID: id, attempt: attempt, worker: leaseOwner)
    }
}
