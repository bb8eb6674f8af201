public import StageMixTime
public import StageMixQueue

/// When a failed webhook delivery is tried again: the delay doubles from 5 s up to an hour, with
/// ±20 % jitter so that a receiver coming back is not hit by every event at once, and delivery is
/// given up `windowSeconds` after the event was made (three days by default, so a receiver may be
/// down over a weekend; with the one-hour cap that is over 70 more attempts).
public struct WebhookRetry: Sendable {
    public var backoff: Backoff
    public var windowSeconds: Double

    public init(baseSeconds: Double = 5, windowSeconds: Double = 72 * 3600) {
        self.backoff = Backoff(baseDelay: baseSeconds, maxDelay: 3600, jitter: 0.8...1.2)
        self.windowSeconds = windowSeconds
    }

    /// The delay after the `attempts`-th failed attempt, or nil once the window is over.
    public func delay(afterAttempts attempts: Int, age: Double, random: Double = Double.random(in: 0...1)) -> Double? {
        let delay = backoff.delay(afterAttempt: attempts, random: random)
        return age + delay > windowSeconds ? nil : delay
    }
}
