/// When a failed webhook delivery is tried again: the delay doubles from `baseSeconds` up to
/// `maxDelaySeconds`, with ±20 % jitter so that a receiver coming back is not hit by every event at
/// once, and delivery is given up `windowSeconds` after the event was made (three days by default,
/// so a receiver may be down over a weekend; with the one-hour cap that is over 70 more attempts).
public struct RetrySchedule: Sendable {
    public var baseSeconds: Double
    public var maxDelaySeconds: Double
    public var windowSeconds: Double

    public init(baseSeconds: Double = 5, maxDelaySeconds: Double = 3600, windowSeconds: Double = 72 * 3600) {
        self.baseSeconds = baseSeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.windowSeconds = windowSeconds
    }

    /// The delay after the `attempts`-th failed attempt, or nil once the window is over.
    public func delay(afterAttempts attempts: Int, age: Double, random: Double = Double.random(in: 0...1)) -> Double? {
        let exponent = Double(min(max(attempts - 1, 0), 40))
        let delay = min(maxDelaySeconds, baseSeconds * pow2(exponent)) * (0.8 + 0.4 * random)
        return age + delay > windowSeconds ? nil : delay
    }

    private func pow2(_ e: Double) -> Double {
        var v = 1.0
        for _ in 0..<Int(e) { v *= 2 }
        return v
    }
}
