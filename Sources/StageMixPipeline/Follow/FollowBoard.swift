import Foundation
import StageMixCapture
import StageMixPlan

/// What the thread following the recording hands the join of a followed run, in order: each chunk
/// as soon as it is encoded, with the plan and capture it was made from; then, once the session has
/// ended, the session as a whole run plans it, and the chunks left. The first failure of either side
/// stops both.
final class FollowBoard: @unchecked Sendable {
    enum Item {
        /// Chunk `job` is encoded: `plan` and `capture` are what was known when it was; `takesPoster`
        /// when its frames hold the poster of the whole session's plan.
        case chunk(ChunkJob, ChunkResult, plan: CompositionPlan, capture: Capture, takesPoster: Bool)
        case ended(FollowedSession)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var failure: (any Error)?
    private var stopping = false

    func post(_ item: Item) {
        condition.withLock {
            items.append(item)
            condition.broadcast()
        }
    }

    func fail(_ error: any Error) {
        condition.withLock {
            if failure == nil, !stopping { failure = error }
            condition.broadcast()
        }
    }

    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    var shouldStop: Bool { condition.withLock { stopping || failure != nil } }

    /// The next item, waiting for it (polling `shouldStop`, the caller's, every tenth of a second);
    /// throws the other side's failure, or `CancellationError` when stopped.
    func next(shouldStop: () -> Bool) throws -> Item {
        while true {
            let state: (Item?, (any Error)?, Bool) = condition.withLock {
                if items.isEmpty, failure == nil, !stopping { _ = condition.wait(until: Date().addingTimeInterval(0.1)) }
                return (items.isEmpty ? nil : items.removeFirst(), failure, stopping)
            }
            if let failure = state.1 { throw failure }
            if let item = state.0 { return item }
            if state.2 || shouldStop() {
                stop()
                throw CancellationError()
            }
        }
    }
}
