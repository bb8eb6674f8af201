import NIOConcurrencyHelpers

/// Wakes idle workers in this process when PostgreSQL says work may be there (LISTEN/NOTIFY).
final class WakeBell: Sendable {
    private struct State {
        var nextID = 0
        var sleepers: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = NIOLockedValueBox(State())

    func ring() {
        let sleepers = state.withLockedValue { state in
            defer { state.sleepers.removeAll() }
            return Array(state.sleepers.values)
        }
        for sleeper in sleepers { sleeper.resume() }
    }

    /// Returns at the next ring, after `timeout`, or when the task is cancelled.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.nextRing() }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextRing() async {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = state.withLockedValue { state -> Bool in
                    if Task.isCancelled { return true }
                    state.sleepers[id] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { $0.sleepers.removeValue(forKey: id) }
            sleeper?.resume()
        }
    }
}
