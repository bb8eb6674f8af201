import NIOConcurrencyHelpers

/// Runs `operation` in a task of its own (so the caller's cancellation does not abort a queue
/// write half-way), giving up waiting for it after `seconds`.
func withDeadline<R: Sendable>(_ seconds: Double, _ operation: @escaping @Sendable () async throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
        let finished = NIOLockedValueBox(false)
        let finish: @Sendable (Result<R, any Error>) -> Void = { result in
            let first = finished.withLockedValue { done in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(with: result) }
        }
        let work = Task {
            do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            finish(.failure(QueueError(.serverUnavailable, "queue did not answer within \(seconds) s")))
            work.cancel()
        }
    }
}

/// Retries a queue write until it succeeds or `seconds` have passed: a worker rides out a
/// database restart instead of losing a finished attempt's result.
func persistently<R: Sendable>(for seconds: Double, _ operation: @escaping @Sendable () async throws -> R) async throws -> R {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while true {
        do {
            return try await withDeadline(10, operation)
        } catch {
            if ContinuousClock.now >= deadline { throw error }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }
}
