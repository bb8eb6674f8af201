import Foundation

/// The chunks of a run as its worker threads and its join see them: which comes next, which are
/// done (with their results), the session's audio once done, and the first failure of any, which stops the rest.
final class ChunkBoard: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var results: [Int: ChunkResult] = [:]
    private var audio: SessionAudioResult?
    private var failure: (any Error)?
    private var stopping = false
    let count: Int

    init(count: Int) { self.count = count }

    /// The next chunk to encode, in order; nil once all are taken or the run stops.
    func take() -> Int? {
        condition.withLock {
            guard !stopping, failure == nil, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func finish(_ index: Int, with outcome: Result<ChunkResult, any Error>) {
        settle(outcome) { results[index] = $0 }
    }

    /// The session's audio work is done, or failed (which fails the run as a chunk's failure does).
    func finishAudio(with outcome: Result<SessionAudioResult, any Error>) {
        settle(outcome) { audio = $0 }
    }

    private func settle<T>(_ outcome: Result<T, any Error>, keeping keep: (T) -> Void) {
        condition.withLock {
            switch outcome {
            case .success(let result): keep(result)
            case .failure(let error): if failure == nil, !stopping { failure = error }
            }
            condition.broadcast()
        }
    }

    /// Stops handing out chunks and tells the running ones to stop.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    var shouldStop: Bool { condition.withLock { stopping || failure != nil } }

    /// The first chunk's failure, once one failed.
    var firstFailure: (any Error)? { condition.withLock { failure } }

    /// Waits for chunk `index`, polling `shouldStop` (the caller's) every tenth of a second; throws
    /// the first failure of any chunk, or `CancellationError` when stopped.
    func wait(for index: Int, shouldStop: () -> Bool) throws -> ChunkResult {
        try wait(shouldStop: shouldStop) { results[index] }
    }

    /// Waits for the session's audio work as ``wait(for:shouldStop:)`` waits for a chunk.
    func waitForAudio(shouldStop: () -> Bool) throws -> SessionAudioResult {
        try wait(shouldStop: shouldStop) { audio }
    }

    private func wait<T>(shouldStop: () -> Bool, for done: () -> T?) throws -> T {
        while true {
            let state: (T?, (any Error)?, Bool) = condition.withLock {
                if done() == nil, failure == nil, !stopping { _ = condition.wait(until: Date().addingTimeInterval(0.1)) }
                return (done(), failure, stopping)
            }
            if let failure = state.1 { throw failure }
            if let result = state.0 { return result }
            if state.2 || shouldStop() {
                stop()
                throw CancellationError()
            }
        }
    }
}
