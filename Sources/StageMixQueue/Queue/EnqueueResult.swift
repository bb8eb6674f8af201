/// What `enqueue` did: the job's id, and whether it is new.
public struct EnqueueResult: Sendable, Equatable {
    public var id: String
    /// False when an active job with the same spec already existed.
    public var created: Bool
}
