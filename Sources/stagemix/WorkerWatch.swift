import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether the worker that runs this process (a phase or a chunk of a chunked composition) is gone.
/// A worker names itself (`--worker-pid`): its child, even one started through a wrapper that forks,
/// watches that process, which a child that read its parent only once started might not find (the
/// worker may have died meanwhile). Without the name, the parent at start is watched.
struct WorkerWatch: Sendable {
    private let worker: pid_t
    /// The parent at start, when it is the worker itself (no wrapper between them).
    private let parent: pid_t?

    init(workerPid: Int32?) {
        let parentAtStart = getppid()
        worker = workerPid ?? parentAtStart
        parent = parentAtStart == worker ? parentAtStart : nil
    }

    /// Gone: no longer our parent (reparented when it died, even before it was reaped), or no longer a process.
    var isGone: Bool {
        if let parent, getppid() != parent { return true }
        return kill(worker, 0) != 0 && errno == ESRCH
    }
}
