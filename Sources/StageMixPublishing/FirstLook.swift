import Foundation

/// What a publisher saw at the destination the first time it looked: whether an output was there.
/// A run that found none may not replace one that appears while it composes.
final class FirstLook: @unchecked Sendable {
    private let lock = NSLock()
    private var looked = false
    private var had: Bool?

    /// True the first time it is asked, false after.
    func isFirst() -> Bool {
        lock.withLock {
            defer { looked = true }
            return !looked
        }
    }

    func record(hadOutput: Bool) { lock.withLock { had = hadOutput } }

    /// Nil until recorded.
    var hadOutput: Bool? { lock.withLock { had } }
}
