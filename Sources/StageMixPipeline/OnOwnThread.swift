import Foundation

/// Runs blocking work (decoding, encoding: minutes inside C) on a thread of its own and awaits it
/// without holding one of the few threads of Swift's cooperative pool while it runs.
/// Commands and the HTTP service use it alike.
public func onOwnThread<T: Sendable>(named name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            CurrentThread.setName(name)
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
