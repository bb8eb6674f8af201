import Foundation

/// A bounded, blocking queue between two threads of a composition (fftools' scheduler in miniature):
/// the producer waits when the consumer is behind, the consumer waits when the producer is, and either
/// side can close it to make the other stop.
final class Handoff<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var closed = false

    init(capacity: Int) { self.capacity = capacity }

    /// Waits for room, then adds `item`; false when the queue was closed (the item is dropped).
    @discardableResult
    func put(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item; nil once the queue is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty, !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come; waiting takers drain what is left, waiting putters give up.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
