/// A durable queue of compose jobs shared by any number of workers.
///
/// Every write about a running attempt names its ``JobLease`` and is refused (fenced) once
/// that lease is gone, so a worker that lost its job cannot overwrite a newer attempt's result.
public protocol JobQueue: Sendable {
    /// Adds a job, or returns the active job (queued, running, or failed-and-retrying) with the same normalised spec.
    func enqueue(_ spec: JobSpec, maxAttempts: Int) async throws -> EnqueueResult
    /// Rescues jobs with expired leases, then hands the next runnable job to `worker`: with `joins`, only
    /// a chunked composition's join (a worker's join slot); without, anything else.
    func claim(worker: String, leaseSeconds: Double, joins: Bool) async throws -> Job?
    /// Renews the lease and stores progress, and a followed composition's positions when given; tells the
    /// worker whether to go on.
    func heartbeat(_ lease: JobLease, leaseSeconds: Double, progress: Double?, followPosition: FollowPosition?) async throws
        -> Job.HeartbeatAction
    func succeed(_ lease: JobLease) async throws -> Job.FenceResult
    func fail(_ lease: JobLease, error: String, retryable: Bool) async throws -> Job.FailAction
    func finishCancelled(_ lease: JobLease) async throws -> Job.FenceResult
    /// Gives a running job back without counting the attempt (worker shutting down).
    func release(_ lease: JobLease) async throws -> Job.FenceResult
    func cancel(id: String) async throws -> Job.CancelAction
    func retry(id: String) async throws -> Job.RetryAction
    /// Puts every running job whose lease has expired back in the queue; returns how many.
    func rescueExpiredLeases() async throws -> Int
    func job(id: String) async throws -> Job?
    /// Newest first.
    func list(limit: Int) async throws -> [Job]
    /// How many jobs are in each state (every state present, zero when none).
    func countByState() async throws -> [JobState: Int]
    /// The plan attempt of a chunked composition made `chunks` chunks' work (and, with `audio`, the
    /// session's audio's): they are queued, and the composition waits for them without a lease.
    func split(_ lease: JobLease, chunks: Int, audio: Bool) async throws -> Job.FenceResult
    /// A chunked composition's chunk jobs, in order (its session's audio job apart).
    func chunks(of id: String) async throws -> [Job]
    /// A chunked composition's session audio job, if it has one.
    func sessionAudio(of id: String) async throws -> Job?
    /// How many chunk jobs are in each state.
    func countChunksByState() async throws -> [JobState: Int]
    /// Chunked compositions that failed for good or were cancelled in the last `seconds`, newest first
    /// (at most 100): their work may still be there if no worker saw them end.
    func endedChunkedCompositions(withinSeconds seconds: Double) async throws -> [Job]
    /// Returns when work may be available, or after `timeout`, whichever comes first.
    func waitForWork(timeout: Duration) async
    func close() async
}

extension JobQueue {
    /// The plan made `chunks` chunks' work, and the join mixes the session's audio itself (as a version
    /// before the audio job did).
    public func split(_ lease: JobLease, chunks: Int) async throws -> Job.FenceResult {
        try await split(lease, chunks: chunks, audio: false)
    }

    /// The next job for a compose slot: a whole composition, a plan, or a chunk.
    public func claim(worker: String, leaseSeconds: Double) async throws -> Job? {
        try await claim(worker: worker, leaseSeconds: leaseSeconds, joins: false)
    }

    /// Renews the lease and stores progress, leaving a followed composition's positions as they were.
    public func heartbeat(_ lease: JobLease, leaseSeconds: Double, progress: Double?) async throws -> Job.HeartbeatAction {
        try await heartbeat(lease, leaseSeconds: leaseSeconds, progress: progress, followPosition: nil)
    }
}
