import Foundation

/// What a child process says on stderr, read through a pipe as it goes and kept to its last 64 KiB:
/// never through a file, which a full disk would leave empty just when the child has most to say.
final class ChildMessages: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var kept = Data()
    private let ended = DispatchSemaphore(value: 0)
    private static let limit = 65_536

    /// Starts reading; give `pipe` to the child as its stderr before it runs.
    init() {
        let reading = pipe.fileHandleForReading
        let thread = Thread { [self] in
            while let data = try? reading.read(upToCount: Self.limit), !data.isEmpty {
                lock.withLock {
                    kept.append(data)
                    if kept.count > Self.limit { kept.removeFirst(kept.count - Self.limit) }
                }
            }
            ended.signal()
        }
        thread.name = "stagemix-child-stderr"
        thread.start()
    }

    /// Once the child has exited: what it said, trimmed. Closes this side's copy of the writing end
    /// so that the reader sees the end of the pipe.
    func text() -> String {
        try? pipe.fileHandleForWriting.close()
        ended.wait()
        return lock.withLock { String(decoding: kept, as: UTF8.self) }.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
