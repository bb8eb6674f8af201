import Dispatch
import Foundation
import StageMixOptions
import StageMixPublishing
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM during a long command: the first asks the work to stop (it polls
/// ``stopRequested`` once per frame and cleans up as it unwinds); if it has not exited a second
/// later, the staging folders are removed here and the process exits 128 + the signal.
final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [any DispatchSourceSignal] = []
    /// How long the work has to unwind by itself.
    static let patience: DispatchTimeInterval = .milliseconds(900)

    init() {
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [weak self] in self?.receive(signo) }
            source.resume()
            sources.append(source)
        }
    }

    /// True once a stop signal has arrived.
    var stopRequested: Bool { lock.withLock { received != nil } }

    /// The exit status for the signal received (130 for SIGINT, 143 for SIGTERM), if one was.
    var exitStatus: ComposeChild.ExitStatus? { lock.withLock { received.map(ComposeChild.ExitStatus.stopped(bySignal:)) } }

    private func receive(_ signo: Int32) {
        let first = lock.withLock { () -> Bool in
            defer { if received == nil { received = signo } }
            return received == nil
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) {
            StagingRegistry.shared.removeAll()
            try? FileHandle.standardError.write(contentsOf: Data("stagemix: stopped by signal \(signo)\n".utf8))
            _exit(ComposeChild.ExitStatus.stopped(bySignal: signo).rawValue)
        }
    }
}
