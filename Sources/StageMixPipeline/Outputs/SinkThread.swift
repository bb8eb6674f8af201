import Foundation
import StageMixMedia

/// Runs a ``CanvasSink`` on a thread of its own, so that the renditions of a ladder scale and
/// encode side by side rather than one after another. The pipeline posts leased canvases; the
/// thread takes each, lets go of it, and at the end finishes the sink. A failure stops the sink
/// (later canvases are let go untouched) and is thrown to the pipeline at its next post or at
/// `finish`.
final class SinkThread: @unchecked Sendable {
    private let sink: any CanvasSink
    private let queue = Handoff<CanvasLease>(capacity: 2)
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?
    private var joined = false

    init(_ sink: any CanvasSink, name: String) {
        self.sink = sink
        let thread = Thread { [self] in
            CurrentThread.setName(name)
            run()
        }
        thread.start()
    }

    private func run() {
        defer { done.signal() }
        var failed = false
        while let lease = queue.take() {
            defer { lease.release() }
            guard !failed, !abandoned else { continue }
            do { try sink.take(lease.canvas, index: lease.index) } catch {
                lock.withLock { failure = error }
                failed = true
            }
        }
        guard !failed, !abandoned else { return }
        do { try sink.finish() } catch { lock.withLock { failure = error } }
    }

    /// Hands the lease to the thread (waiting while it is two frames behind).
    func post(_ lease: CanvasLease) throws {
        if let failure = lock.withLock({ failure }) {
            lease.release()
            throw failure
        }
        if !queue.put(lease) { lease.release() }
    }

    /// No more canvases: waits for the thread to finish the sink; throws what failed.
    func finish() throws {
        join()
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Stops taking canvases and waits for the thread. `abandoning` (an error or a stop elsewhere)
    /// lets go of the canvases still queued without encoding them, and skips the sink's finish.
    func join(abandoning: Bool = false) {
        guard !joined else { return }
        joined = true
        if abandoning { lock.withLock { isAbandoned = true } }
        queue.close()
        done.wait()
    }

    private var isAbandoned = false
    private var abandoned: Bool { lock.withLock { isAbandoned } }
}
