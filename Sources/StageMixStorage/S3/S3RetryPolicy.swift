public import StageMixTime
import Foundation

/// How often and how patiently a request is tried: a transient failure (5xx, `SlowDown`, a reset,
/// refused or timed-out connection) is tried again after an exponential, jittered delay, up to
/// `attempts` times in all; each attempt must finish within `requestTimeout` seconds.
public struct S3RetryPolicy: Sendable, Hashable {
    public var attempts: Int
    public var backoff: Backoff
    public var requestTimeout: Double

    public init(attempts: Int, backoff: Backoff, requestTimeout: Double) {
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.requestTimeout = requestTimeout
    }

    /// Six attempts over about 10 s of waiting (0.25 s doubling to 4 s, each 50–100 %), ten minutes each
    /// at most (a part of 8 MiB at 14 KB/s); a stalled answer fails sooner, after 60 s without a byte.
    /// `AWS_MAX_ATTEMPTS`, the AWS SDKs' own setting, changes the number of attempts.
    public static var standard: S3RetryPolicy {
        let attempts = ProcessInfo.processInfo.environment["AWS_MAX_ATTEMPTS"].flatMap(Int.init).map { min(max($0, 1), 20) } ?? 6
        return S3RetryPolicy(attempts: attempts, backoff: Backoff(baseDelay: 0.25, maxDelay: 4, jitter: 0.5...1), requestTimeout: 600)
    }
}
