/// A durable queue of compose jobs shared by any number of workers.
///
/// Every write about a running attempt names its ``JobLease`` and is refused (fenced) once
/// that lease is gone, so a worker that lost its job cannot overwrite a newer attempt's result.
public protocol JobQueue: Sendable {
    /// Adds a job, or returns the active job (queued, running, or failed-and-retrying) with the same normalised spec.
    func enqueue(_ spec: JobSpec, maxAttempts: Int) async throws -> EnqueueResult
    /// Rescues jobs with expired leases, then hands the next runnable job to `worker`.
    func claim(worker: String, leaseSeconds: Double) async throws -> Job?
    /// Renews the lease and stores progress; tells the worker whether to go on.
    func heartbeat(_ lease: JobLease, leaseSeconds: Double, progress: Double?) async throws -> Job.HeartbeatAction
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
    /// Returns when work may be available, or after `timeout`, whichever comes first.
    func waitForWork(timeout: Duration) async
    func close() async
}

public struct EnqueueResult: Sendable, Equatable {
    public var id: String
    /// False when an active job with the same spec already existed.
    public var created: Bool
}

/// Settings every backend shares.
public struct QueueOptions: Sendable {
    public var retry: RetryPolicy
    /// Random numbers in 0..<1 for the back-off jitter; tests fix it.
    public var random: @Sendable () -> Double

    public init(retry: RetryPolicy = RetryPolicy(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.retry = retry
        self.random = random
    }
}

/// A queue error with a code, as `PSQLError` has.
public struct QueueError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }
        public static let badURL = Code(name: "badURL")
        public static let noSuchJob = Code(name: "noSuchJob")
        public static let duplicateActiveJob = Code(name: "duplicateActiveJob")
        public static let corruptRow = Code(name: "corruptRow")
        public static let serverUnavailable = Code(name: "serverUnavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
