public import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle

/// Claims compose jobs from a ``JobQueue`` and runs each in a child process, `concurrency` at a
/// time, plus one chunked composition's join at a time. Run it in a `ServiceGroup`: on graceful shutdown (SIGTERM) it stops claiming, gives the
/// jobs in hand `shutdownGrace` to finish, then kills their children and releases the jobs.
public final class Worker: Service {
    let queue: any JobQueue
    let configuration: WorkerConfiguration
    let logger: Logger
    /// Counters for `--metrics`; kept whether or not anything serves them.
    public let metrics: WorkerMetrics
    private let shutdownRequested = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    public init(queue: any JobQueue, configuration: WorkerConfiguration, logger: Logger = Logger(label: "stagemix.worker"),
                metrics: WorkerMetrics = WorkerMetrics()) {
        self.queue = queue
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        logger.info("worker \(configuration.workerID) started", metadata: ["concurrency": "\(configuration.concurrency)"])
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, configuration.concurrency) {
                    group.addTask { await self.claimLoop(joins: false) }
                }
                // One join beside them: it mostly waits for its chunks, which these slots (here and elsewhere) encode.
                group.addTask { await self.claimLoop(joins: true) }
            }
        } onGracefulShutdown: {
            self.requestShutdown()
        }
        logger.info("worker \(configuration.workerID) stopped")
    }

    /// Asks the worker to stop as SIGTERM would (for embedding and tests).
    public func requestShutdown() {
        let first = shutdownRequested.withLockedValue { requested in
            defer { requested = requested ?? .now }
            return requested == nil
        }
        if first { logShutdown() }
    }

    /// The job ids whose attempts run now, for the log line at shutdown.
    private let inHand = NIOLockedValueBox<[String]>([])

    /// Says at once what a stop waits for, so that a wait of up to the grace does not look like a hang.
    private func logShutdown() {
        let jobs = inHand.withLockedValue { $0 }
        guard !jobs.isEmpty else {
            logger.notice("shutting down: no job in hand")
            return
        }
        let grace = configuration.shutdownGrace.components
        let seconds = Double(grace.seconds) + Double(grace.attoseconds) / 1e18
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        let which = jobs.count == 1 ? "the job" : "the \(jobs.count) jobs"
        let message = "shutting down: claiming no more; waiting up to \(shown) s (--shutdown-grace) for \(which) in hand to finish, "
            + "then releasing what is left for another worker"
        logger.notice("\(message)", metadata: ["jobs": "\(jobs.joined(separator: ","))"])
    }

    var isShuttingDown: Bool { shutdownRequested.withLockedValue { $0 != nil } }

    /// True once the grace period after a shutdown request is over.
    var graceIsOver: Bool {
        shutdownRequested.withLockedValue { $0.map { ContinuousClock.now >= $0 + configuration.shutdownGrace } ?? false }
    }

    /// Takes jobs one after another: for a compose slot, whole compositions, plans and chunks; for the
    /// join slot, the joins of chunked compositions (docs/chunks.md, "On the queue").
    private func claimLoop(joins: Bool) async {
        while !isShuttingDown && !Task.isCancelled {
            let job: Job?
            do {
                job = try await withDeadline(15) { [queue, configuration] in
                    try await queue.claim(worker: configuration.workerID, leaseSeconds: configuration.leaseSeconds, joins: joins)
                }
            } catch {
                logger.warning("claim failed, retrying: \(String(reflecting: error))")
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            if let job, let lease = job.lease {
                inHand.withLockedValue { $0.append(job.id) }
                await AttemptRun(worker: self, job: job, lease: lease).run()
                inHand.withLockedValue { $0.removeAll { $0 == job.id } }
            } else {
                if joins { await sweepEndedWork() }
                await queue.waitForWork(timeout: configuration.pollInterval)
            }
        }
    }

    private let lastSweep = NIOLockedValueBox<ContinuousClock.Instant?>(nil)

    /// Now and then, when its join slot is idle: removes the work of chunked compositions that ended
    /// without a worker seeing it (failed or cancelled by a lease running out, every worker gone), in
    /// the last day. Any idle worker may; removing what another removed first is nothing.
    func sweepEndedWork() async {
        let due = lastSweep.withLockedValue { last in
            guard last.map({ ContinuousClock.now - $0 >= configuration.sweepInterval }) ?? true else { return false }
            last = .now
            return true
        }
        guard due, let ended = try? await withDeadline(15, { [queue] in try await queue.endedChunkedCompositions(withinSeconds: 86_400) })
        else { return }
        for job in ended {
            guard let work = job.chunkWork else { continue }
            _ = try? await AttemptOutput.onFileThread {
                guard work.exists else { return }
                try work.remove()
                self.logger.info("swept the chunks' work of ended composition \(job.id) at \(work.description)")
            }
        }
    }
}
