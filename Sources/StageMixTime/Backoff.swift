/// Exponential back-off with jitter, for whatever is tried again after a failure (a job's attempts,
/// a webhook's deliveries): the delay doubles from `baseDelay` after each failed attempt up to
/// `maxDelay`, and is then scaled by a random share in `jitter`, so that what failed together is not
/// all tried again at the same moment.
public struct Backoff: Sendable, Hashable {
    /// Delay after the first failed attempt, before jitter.
    public var baseDelay: Double
    /// Upper bound of the delay, before jitter.
    public var maxDelay: Double
    /// The share of the nominal delay waited: `0.5...1` waits between half and all of it, `1...1` has no jitter.
    public var jitter: ClosedRange<Double>

    public init(baseDelay: Double, maxDelay: Double, jitter: ClosedRange<Double>) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// A job's attempts (``QueueOptions``): 5 s, doubling to 5 minutes, each waited between 50 % and 100 %.
    public static func jobRetry(baseDelay: Double = 5) -> Backoff {
        Backoff(baseDelay: baseDelay, maxDelay: 300, jitter: 0.5...1)
    }

    /// Delay after `attempt` (1-based) failed; `random` in 0...1 picks the share in `jitter`, 0 the largest.
    public func delay(afterAttempt attempt: Int, random: Double) -> Double {
        // Past 2^30 times any base the cap has long been reached.
        let doublings = max(0, min(attempt - 1, 30))
        var nominal = baseDelay
        for _ in 0..<doublings { nominal *= 2 }
        return min(maxDelay, nominal) * (jitter.upperBound - (jitter.upperBound - jitter.lowerBound) * random)
    }
}
