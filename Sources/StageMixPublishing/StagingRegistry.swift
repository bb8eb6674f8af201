import Foundation

/// The staging folders this process is writing, so that a signal handler that must exit at once
/// can still remove them.
public final class StagingRegistry: @unchecked Sendable {
    public static let shared = StagingRegistry()

    private let lock = NSLock()
    private var folders: Set<URL> = []

    func add(_ folder: URL) { lock.withLock { _ = folders.insert(folder) } }
    func remove(_ folder: URL) { lock.withLock { _ = folders.remove(folder) } }

    /// Removes every staging folder still registered; for a process about to exit.
    public func removeAll() {
        let all = lock.withLock { () -> Set<URL> in
            defer { folders = [] }
            return folders
        }
        for folder in all { try? FileManager.default.removeItem(at: folder) }
    }
}
