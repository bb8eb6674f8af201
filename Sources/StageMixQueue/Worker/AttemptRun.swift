import Foundation
import Logging
import NIOConcurrencyHelpers
import StageMixOptions
import StageMixPublishing
import StageMixStorage

/// One attempt of one job: spawn the compose child, renew the lease while it runs, then
/// publish and report, or stop it when cancelled, when the lease is lost, or at shutdown.
struct AttemptRun {
    let worker: Worker
    let job: Job
    let lease: JobLease

    private enum Stop {
        case cancelled
        case leaseLost
        case shuttingDown
        /// What the attempt's child needs failed beside it (a join's chunks could not be fetched).
        case failed(String)
    }

    var queue: any JobQueue { worker.queue }
    var configuration: WorkerConfiguration { worker.configuration }
    /// The worker's logger with the job's id as `composition` (the HTTP API's compositions are jobs).
    var logger: Logger {
        var logger = worker.logger
        logger[metadataKey: "composition"] = "\(job.id)"
        return logger
    }
    /// Long enough to ride out a database restart.
    var reportPatience: Double { max(60, configuration.leaseSeconds * 2) }

    func run() async {
        worker.metrics.started()
        let started = ContinuousClock.now
        let outcome = await attempt()
        let elapsed = ContinuousClock.now - started
        worker.metrics.ended(outcome, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func attempt() async -> WorkerMetrics.Outcome {
        logger.info("running \(lease)", metadata: ["out": "\(job.spec.out)"])
        let output = AttemptOutput(spec: job.spec, lease: lease)
        let kind: AttemptKind
        do {
            kind = try AttemptKind(job)
        } catch {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(error)", retryable: false) }
            return .badInput
        }
        if case .chunk(let work, let part) = kind { return await chunk(part, work: work) }
        do {
            try await renewingLease(output.prepare)
            // Before the work is read: a join that died removing it leaves it partly gone. A look at the store
            // may outlast a lease, so it renews the lease as preparing does.
            let published = NIOLockedValueBox(false)
            if kind.publishes { try await renewingLease { try published.withLockedValue { $0 = try output.isPublished() } } }
            if published.withLockedValue({ $0 }) {
                return await ended(await finishPublished(kind), kind)
            }
            if let work = kind.work {
                let planning = if case .plan = kind { true } else { false }
                let following = if case .follow = kind { true } else { false }
                // A plan starts from nothing: what an earlier plan's chunks left must not be joined into this one.
                try await renewingLease {
                    if planning { try? work.remove() }
                    try work.prepare(fetchingRun: !planning && !following)
                }
            }
        } catch let refusal as OutputRefusal where refusal.isTemporary {
            // Another run is writing the output: free again once it is done, so tried again later.
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "cannot prepare \(job.spec.out): \(refusal)", retryable: true) }
            return .failed
        } catch let refusal as OutputRefusal {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(refusal)", retryable: false) }
            return await ended(.badInput, kind)
        } catch let refusal as S3Error where !refusal.isTransient {
            // The store refused (wrong keys, no such bucket, access denied): the same the next time.
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(refusal)", retryable: false) }
            return await ended(.badInput, kind)
        } catch {
            kind.work?.removeLocal()
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: Self.failure("cannot prepare \(job.spec.out)", error, at: job.spec.out), retryable: true) }
            return .failed
        }
        let chunks = NIOLockedValueBox<ComposeChild.ChunksLine?>(nil)
        let arguments = configuration.composeCommand + job.spec.composeArguments(outDirectory: output.attemptDirectory.path) + kind.arguments
        // A join whose work is in a bucket has the chunks brought to it as they land, while it runs.
        let fetching = fetchChunks(for: kind)
        let stopped = await runChild(arguments, kind: kind, leftovers: { output.removeAttemptLeftovers() }, onLine: { line in
            if let line = ComposeChild.ChunksLine(parsing: line) { chunks.withLockedValue { $0 = line } }
        }, abort: { fetching?.failure })
        await fetching?.finish()
        if let stopped { return await ended(stopped, kind) }
        guard case .plan(let work) = kind else { return await ended(await publish(output, kind: kind), kind) }
        return await ended(await split(chunks.withLockedValue { $0 }, work: work), kind)
    }

    /// Runs the attempt's child to its end, renewing the lease; nil when it exited 0, else how the
    /// attempt ended (reported to the queue, `leftovers` removed).
    func runChild(_ arguments: [String], kind: AttemptKind, leftovers: @escaping @Sendable () -> Void,
                          onLine: @escaping @Sendable (String) -> Void = { _ in },
                          abort: @escaping @Sendable () -> String? = { nil }) async -> WorkerMetrics.Outcome? {
        let progress = NIOLockedValueBox<Double?>(nil)
        // A followed composition tells its recorded and composed positions instead of a percent.
        let position = NIOLockedValueBox<FollowPosition?>(nil)
        let child: ChildProcess
        do {
            child = try ChildProcess(arguments: arguments) { line in
                if let line = ComposeChild.ProgressLine(parsing: line) { progress.withLockedValue { $0 = kind.overall(line.percent) } }
                if let line = ComposeChild.FollowLine(parsing: line) {
                    position.withLockedValue { $0 = FollowPosition(recordedSeconds: line.recordedSeconds, composedSeconds: line.composedSeconds) }
                }
                onLine(line)
            }
        } catch {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "cannot start compose: \(error)", retryable: true) }
            return .failed
        }

        if let stop = await supervise(child, progress: progress, position: position, abort: abort) {
            _ = await child.stop(grace: Self.stopGrace)
            _ = try? await AttemptOutput.onFileThread(leftovers)
            switch stop {
            case .cancelled:
                logger.info("cancelled \(lease)")
                await report("cancel") { [lease] queue in _ = try await queue.finishCancelled(lease) }
                return .cancelled
            case .leaseLost:
                logger.warning("lost the lease of \(lease); dropped its output")
                return .leaseLost
            case .shuttingDown:
                logger.info("shutdown grace over: released \(lease)")
                await report("release") { [lease] queue in _ = try await queue.release(lease) }
                return .released
            case .failed(let why):
                logger.warning("stopped \(lease): \(why)")
                await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: why, retryable: true) }
                return .failed
            }
        }

        let exit = await child.waitForExit()
        let failure: ComposeChild.Failure? = switch exit {
        case .exited(let status): ComposeChild.Failure(exitStatus: ComposeChild.ExitStatus(rawValue: status))
        case .signalled: .composeFailed
        }
        guard let failure else { return nil }
        _ = try? await AttemptOutput.onFileThread(leftovers)
        await report("fail") { [lease, error = message(failure, exit, child)] queue in
            _ = try await queue.fail(lease, error: error, retryable: failure.isRetryable)
        }
        return failure.isRetryable ? .failed : .badInput
    }

    /// How often a running attempt looks at its job (a read) to learn of a cancel: the child is told within about this long.
    static let watchInterval: Duration = .milliseconds(250)
    /// Progress that moved is stored at most this often, so a watcher sees it move at least about once a second.
    static let progressInterval: Duration = .milliseconds(500)
    /// How long a stopped child has between SIGTERM and SIGKILL; compose needs under a second.
    static let stopGrace: Duration = .seconds(3)

    /// Waits for the child, renewing the lease every heartbeat, storing progress (and a followed
    /// composition's positions) when it moves, and looking at the job in between for a cancel; returns
    /// why the child must be stopped, if it must.
    private func supervise(_ child: ChildProcess, progress: NIOLockedValueBox<Double?>, position: NIOLockedValueBox<FollowPosition?>,
                           abort: @Sendable () -> String?) async -> Stop? {
        let heartbeat = Duration.seconds(configuration.heartbeatSeconds)
        var nextHeartbeat = ContinuousClock.now + heartbeat
        var nextProgress = ContinuousClock.now
        var nextLook = ContinuousClock.now + Self.watchInterval
        var stored: Double?
        var storedPosition: FollowPosition?
        while child.exit == nil {
            if Task.isCancelled || worker.graceIsOver { return .shuttingDown }
            if let why = abort() { return .failed(why) }
            try? await Task.sleep(for: .milliseconds(50))
            let now = ContinuousClock.now
            let percent = progress.withLockedValue { $0 }
            let told = position.withLockedValue { $0 }
            if now >= nextHeartbeat || ((percent != stored || told != storedPosition) && now >= nextProgress) {
                nextHeartbeat = now + heartbeat
                nextProgress = now + Self.progressInterval
                nextLook = now + Self.watchInterval
                do {
                    let action = try await withDeadline(configuration.heartbeatSeconds) { [queue, lease, configuration] in
                        try await queue.heartbeat(lease, leaseSeconds: configuration.leaseSeconds, progress: percent, followPosition: told)
                    }
                    stored = percent
                    storedPosition = told
                    switch action {
                    case .keepRunning: continue
                    case .cancel: return .cancelled
                    case .leaseLost: return .leaseLost
                    }
                } catch {
                    // The lease may well still be ours: keep going and try again next beat.
                    logger.warning("heartbeat of \(lease) failed: \(String(reflecting: error))")
                }
            } else if now >= nextLook {
                nextLook = now + Self.watchInterval
                // A read, not a write: cheap enough to do four times a second. A failed look waits for the next.
                guard let job = try? await withDeadline(1, { [queue, lease] in try await queue.job(id: lease.jobID) }) else { continue }
                if !job.holds(lease) { return .leaseLost }
                if job.cancelRequested { return .cancelled }
            }
        }
        return nil
    }

    /// Fenced publish: renew the lease, and only if this attempt still holds it, rename the
    /// output into place and mark the job succeeded.
    private func publish(_ output: AttemptOutput, kind: AttemptKind) async -> WorkerMetrics.Outcome {
        if let lost = await confirmLease(progress: 100, dropping: { await removeLeftovers(output) }) { return lost }
        if case .join = kind { await noteQueue(in: output.attemptDirectory.appendingPathComponent(OutputFiles.report)) }
        // Read before publishing: an output in a bucket is no longer on this machine after.
        let cpu = (try? Data(contentsOf: output.attemptDirectory.appendingPathComponent(OutputFiles.report))) ?? Data()
        do {
            try await renewingLease(output.publish)
        } catch let refusal as OutputRefusal where refusal.isTemporary {
            // Another run is writing the output: free again once it is done, so tried again later.
            await removeLeftovers(output)
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "publish failed: \(refusal)", retryable: true) }
            return .failed
        } catch let refusal as OutputRefusal {
            // Something not StageMix's appeared at the output while the job ran: never replace it, never retry.
            await removeLeftovers(output)
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(refusal)", retryable: false) }
            return .badInput
        } catch let refusal as S3Error where !refusal.isTransient {
            await removeLeftovers(output)
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(refusal)", retryable: false) }
            return .badInput
        } catch {
            await removeLeftovers(output)
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: Self.failure("publish failed", error, at: job.spec.out), retryable: true) }
            return .failed
        }
        await removeWork(kind)
        logger.info("succeeded \(lease)")
        worker.metrics.addComposeCPU(fromReport: cpu)
        await report("succeed") { [lease] queue in _ = try await queue.succeed(lease) }
        return .succeeded
    }

    /// An earlier attempt published the output, then died before the queue heard of it (a SIGKILL between
    /// the marker and the report): nothing is composed or published again; once this attempt confirms its
    /// lease, what that attempt had not yet removed goes and the job succeeds.
    private func finishPublished(_ kind: AttemptKind) async -> WorkerMetrics.Outcome {
        if let lost = await confirmLease(progress: 100, dropping: {}) { return lost }
        await removeWork(kind)
        logger.info("succeeded \(lease): its output was already published by an earlier attempt")
        await report("succeed") { [lease] queue in _ = try await queue.succeed(lease) }
        return .succeeded
    }

    /// Removes a published composition's chunk work before the job is marked succeeded, so that a worker
    /// killed while removing it leaves a job that is rescued, and the rescue removes the rest.
    private func removeWork(_ kind: AttemptKind) async {
        guard let work = kind.work else { return }
        do {
            try await AttemptOutput.onFileThread { try work.remove() }
            logger.info("removed the chunks' work at \(work.description)")
        } catch {
            logger.warning("could not remove the chunks' work at \(work.description): \(error)")
        }
    }

    /// Renews the lease before what only its holder may do (publish an output, put a chunk in place):
    /// nil while this attempt holds it; otherwise `dropping` is run, a cancel is reported, and the outcome returned.
    func confirmLease(progress: Double?, dropping: () async -> Void) async -> WorkerMetrics.Outcome? {
        let action: Job.HeartbeatAction
        do {
            action = try await persistently(for: reportPatience) { [queue, lease, configuration] in
                try await queue.heartbeat(lease, leaseSeconds: configuration.leaseSeconds, progress: progress)
            }
        } catch {
            logger.error("could not confirm the lease of \(lease) before publishing: \(String(reflecting: error))")
            await dropping()
            return .leaseLost
        }
        guard action != .keepRunning else { return nil }
        await dropping()
        if action == .cancel {
            await report("cancel") { [lease] queue in _ = try await queue.finishCancelled(lease) }
            return .cancelled
        }
        return .leaseLost
    }

    /// Prepares or publishes the output (`work`, on a thread of its own) while renewing the lease every
    /// heartbeat. With an output in a bucket both are requests to a store, and publishing uploads every
    /// segment after compose has finished: either can take far longer than a lease, and a lease left
    /// to run out would let another worker rescue the job and write the same prefix at the same time.
    func renewingLease(_ work: @escaping @Sendable () throws -> Void) async throws {
        // Not a child task: a worker told to stop still finishes the work in hand, and keeps its lease meanwhile.
        let renewal = Task { [queue, lease, configuration, logger] in
            while true {
                try? await Task.sleep(for: .seconds(configuration.heartbeatSeconds))
                if Task.isCancelled { return }
                do {
                    _ = try await withDeadline(configuration.heartbeatSeconds) {
                        try await queue.heartbeat(lease, leaseSeconds: configuration.leaseSeconds, progress: nil)
                    }
                } catch {
                    logger.warning("heartbeat of \(lease) failed: \(String(reflecting: error))")
                }
            }
        }
        defer { renewal.cancel() }
        try await AttemptOutput.onFileThread(work)
    }

    func removeLeftovers(_ output: AttemptOutput) async {
        _ = try? await AttemptOutput.onFileThread(output.removeAttemptLeftovers)
    }

    /// The job's error: the failure's words first (``CompositionView`` tells `retryable` by them), then compose's last words.
    /// Compose's error line (`stagemix: ...`) comes first, before the warnings it printed on the way, so
    /// that the first line of the job's error is what stopped it; a full disk's line is the error itself.
    func message(_ failure: ComposeChild.Failure, _ exit: ChildProcess.Exit, _ child: ChildProcess) -> String {
        let tail = child.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
        let lines = tail.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard let said = lines.lastIndex(where: { $0.hasPrefix("stagemix: ") }) else {
            return tail.isEmpty ? "\(failure) (\(exit))" : "\(failure) (\(exit)): \(tail.suffix(1000))"
        }
        let line = String(lines[said].dropFirst("stagemix: ".count).prefix(1000))
        var rest = lines
        rest.remove(at: said)
        let before = rest.isEmpty ? "" : "\n" + String(rest.joined(separator: "\n").suffix(1000))
        if failure.isFullDisk, ComposeChild.Failure(error: line) == failure { return line + before }
        return "\(failure) (\(exit)): \(line)\(before)"
    }

    func report(_ what: String, _ write: @escaping @Sendable (any JobQueue) async throws -> Void) async {
        do {
            try await persistently(for: reportPatience) { [queue] in try await write(queue) }
        } catch {
            // The lease will expire and the job be rescued; nothing is lost but time.
            logger.error("could not \(what) \(lease): \(String(reflecting: error))")
        }
    }
}
