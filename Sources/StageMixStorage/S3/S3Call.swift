internal import NIOCore

/// One S3 request under way (with its retries), awaited from async code or waited for from a thread
/// of its own. The request runs on AsyncHTTPClient's event loops either way, so a thread that waits
/// never holds up the work it waits for, and no Swift concurrency thread is blocked by `wait()` unless
/// its caller chose to.
public struct S3Call<Value: Sendable>: Sendable {
    let future: EventLoopFuture<Value>

    /// The answer, awaited.
    public var value: Value {
        get async throws { try await future.get() }
    }

    /// The answer, waited for on this thread (a compose thread, never an event loop's).
    public func wait() throws -> Value { try future.wait() }
}
