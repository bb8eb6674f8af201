/// The right of one worker to run one attempt of a job. Every write a worker makes about
/// its attempt names its lease, and is refused once the lease has been lost (fencing).
public struct JobLease: Sendable, Hashable, CustomStringConvertible {
    public var jobID: String
    public var attempt: Int
    public var worker: String

    public init(jobID: String, attempt: Int, worker: String) {
        self.jobID = jobID
        self.attempt = attempt
        self.worker = worker
    }

    public var description: String { "\(jobID)#\(attempt)@\(worker)" }
}
