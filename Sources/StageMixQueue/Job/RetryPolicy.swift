/// Exponential back-off with jitter between attempts of a failed job.
public struct RetryPolicy: Sendable, Hashable {
    /// Delay after the first failed attempt, before jitter.
    public var baseDelay: Double
    /// Upper bound of the delay, before jitter.
    public var maxDelay: Double
    /// Share of the delay that is random: 0.5 means a delay between 50 % and 100 % of the nominal one.
    public var jitter: Double

    public init(baseDelay: Double = 5, maxDelay: Double = 300, jitter: Double = 0.5) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// Delay after `attempt` (1-based) failed; `random` is in 0..<1.
    public func delay(afterAttempt attempt: Int, random: Double) -> Double {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        let nominal = min(maxDelay, baseDelay * pow2(exponent))
        return nominal * (1 - jitter * random)
    }

    private func pow2(_ e: Double) -> Double {
        var r = 1.0
        for _ in 0..<Int(e) { r *= 2 }
        return r
    }
}
