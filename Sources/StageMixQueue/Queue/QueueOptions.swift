public import StageMixTime
/// Settings every backend shares.
public struct QueueOptions: Sendable {
    public var retry: Backoff
    /// Random numbers in 0..<1 for the back-off jitter; tests fix it.
    public var random: @Sendable () -> Double

    public init(retry: Backoff = .jobRetry(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.retry = retry
        self.random = random
    }
}
