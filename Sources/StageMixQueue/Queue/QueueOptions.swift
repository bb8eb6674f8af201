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
