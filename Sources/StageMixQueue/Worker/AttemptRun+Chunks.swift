import Foundation
import StageMixOptions

/// The attempts of a chunked composition's phases that differ from a whole one's: a chunk (its
/// files put in place whole), the end of the plan (its chunks queued), and the work folder removed
/// once the composition has ended.
extension AttemptRun {
    /// Makes chunk `part` (a chunk of the video, or the session's audio) into a folder of this attempt's
    /// in the work folder, then puts the folder in place (`chunk-00003/`, `audio/`) and marks the job
    /// done. Two attempts of one part (one whose lease ran out but that went on) never mix their files:
    /// the first folder in place stays.
    func chunk(_ part: ChunkPart, work: ChunkWork) async -> WorkerMetrics.Outcome {
        let kind = AttemptKind.chunk(work: work, part: part)
        guard let command = configuration.chunkCommand else {
            await report("fail") { [lease] queue in
                _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): the worker's compose command does not end in compose, so it cannot run a chunk", retryable: false)
            }
            return await ended(.badInput, kind)
        }
        defer { work.removeLocal() }
        do {
            try await renewingLease { try work.prepare(fetchingRun: true) }
        } catch {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: Self.failure("cannot read the chunks' work at \(work.description)", error), retryable: true) }
            return await ended(.failed, kind)
        }
        // The chunk reads the capture run.json names: it must be the job's own, whatever else wrote there.
        if let named = work.runCapture, named != job.spec.capture {
            await report("fail") { [lease, job] queue in
                _ = try await queue.fail(lease, error: "\(ComposeChild.Failure.badInput): \(work.description)/run.json names the capture \(named), not \(job.spec.capture)", retryable: false)
            }
            return await ended(.badInput, kind)
        }
        let into = work.attemptFolder(part, attempt: lease.attempt)
        let arguments = command + ["--work", work.local.path] + part.arguments + ["--into", into.path, "--worker-pid", "\(getpid())"]
        if let stopped = await runChild(arguments, kind: kind, leftovers: { try? FileManager.default.removeItem(at: into) }) {
            return await ended(stopped, kind)
        }
        // Only an attempt that still holds its lease puts its chunk in place: one that lost it, or whose
        // composition was cancelled meanwhile, leaves nothing behind.
        if let lost = await confirmLease(progress: nil, dropping: { try? FileManager.default.removeItem(at: into) }) {
            return await ended(lost, kind)
        }
        do {
            try await renewingLease { try work.publish(part, from: into) }
        } catch {
            try? FileManager.default.removeItem(at: into)
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: Self.failure("cannot put \(part) in place at \(work.description)", error, at: work.description), retryable: true) }
            return await ended(.failed, kind)
        }
        do {
            let result = try await persistently(for: reportPatience) { [queue, lease] in try await queue.succeed(lease) }
            return result == .applied ? .succeeded : .leaseLost
        } catch {
            logger.error("could not succeed \(lease): \(String(reflecting: error))")
            return .leaseLost
        }
    }

    /// For a join whose work is in a bucket: a thread that brings the chunks into its local folder as
    /// they land, until told to finish. A store that fails is tried again every few seconds; the join
    /// waits meanwhile, and its worker stops it if the composition ends.
    func fetchChunks(for kind: AttemptKind) -> ChunkFetching? {
        guard case .join(let work) = kind, !work.isLocal else { return nil }
        let fetching = ChunkFetching()
        let logger = self.logger
        Thread.detachNewThread {
            while !fetching.stopped {
                do {
                    try work.fetchChunks(shouldStop: { fetching.stopped })
                    break
                } catch let error as QueueError {
                    // What is there is not a chunk's: trying again finds the same; the attempt fails.
                    fetching.fail("cannot fetch the chunks from \(work.description): \(error)")
                    break
                } catch {
                    logger.warning("fetching chunks from \(work.description) failed, trying again: \(error)")
                    Thread.sleep(forTimeInterval: 2)
                }
            }
            fetching.done()
        }
        return fetching
    }

    /// The plan attempt exited 0 having said how many chunks there are (and whether the session's audio is
    /// a job of its own): its plan is shared, and they are queued.
    func split(_ line: ComposeChild.ChunksLine?, work: ChunkWork) async -> WorkerMetrics.Outcome {
        guard let count = line?.count else {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: "the plan phase did not say how many chunks it made", retryable: true) }
            return .failed
        }
        defer { work.removeLocal() }
        do {
            try await renewingLease(work.publishPlan)
        } catch {
            await report("fail") { [lease] queue in _ = try await queue.fail(lease, error: Self.failure("cannot share the plan at \(work.description)", error, at: work.description), retryable: true) }
            return .failed
        }
        do {
            let audio = line?.audio == true
            let result = try await persistently(for: reportPatience) { [queue, lease] in try await queue.split(lease, chunks: count, audio: audio) }
            guard result == .applied else {
                // Cancelled while it planned: it ends cancelled now, not when its lease runs out.
                let cancelled = try? await persistently(for: reportPatience) { [queue, lease] in try await queue.finishCancelled(lease) }
                return cancelled == .applied ? .cancelled : .leaseLost
            }
            logger.info("planned \(lease): \(count) chunks queued\(audio ? ", and the session's audio" : "")")
            return .succeeded
        } catch {
            logger.error("could not queue the chunks of \(lease): \(String(reflecting: error))")
            return .leaseLost
        }
    }

    /// Removes the work folder of a chunked composition that has ended: failed for good, or cancelled
    /// (a published one's is removed before it is marked succeeded). Any worker that sees it ended does;
    /// nothing else removes it.
    func ended(_ outcome: WorkerMetrics.Outcome, _ kind: AttemptKind) async -> WorkerMetrics.Outcome {
        guard let work = kind.work else { return outcome }
        let over: Bool
        switch (kind, outcome) {
        case (_, .succeeded), (_, .released), (_, .leaseLost): over = false
        default:
            let composition = job.parentID ?? job.id
            over = (try? await queue.job(id: composition))?.state.isFinal ?? false
        }
        if over {
            _ = try? await AttemptOutput.onFileThread { try work.remove() }
            logger.info("removed the chunks' work at \(work.description)")
        } else {
            work.removeLocal()
        }
        return outcome
    }

    /// Adds to the join's `report.json` what only the queue knows: how long the composition took from
    /// being queued to being ready, and how long it, its chunks and its session's audio waited for a worker.
    func noteQueue(in report: URL) async {
        guard let data = try? Data(contentsOf: report),
              var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let chunks = try? await queue.chunks(of: job.id) else { return }
        let audio = try? await queue.sessionAudio(of: job.id)
        func rounded(_ seconds: Double) -> Double { (max(0, seconds) * 1000).rounded() / 1000 }
        func wait(_ job: Job) -> Double { rounded((job.startedAt ?? job.createdAt) - job.createdAt) }
        let waits = chunks.map(wait)
        let planWait = wait(job)
        var queued: [String: Any] = [
            "timeToReadySeconds": rounded(Date().timeIntervalSince1970 - job.createdAt),
            "waitingSeconds": rounded(planWait + waits.reduce(0, +) + (audio.map(wait) ?? 0)),
            "planWaitingSeconds": planWait,
            "chunks": zip(chunks, waits).map { chunk, wait in
                ["index": chunk.chunk ?? 0, "attempts": chunk.attempt, "waitingSeconds": wait] as [String: Any]
            },
        ]
        if let audio { queued["audio"] = ["attempts": audio.attempt, "waitingSeconds": wait(audio)] as [String: Any] }
        object["queue"] = queued
        guard let patched = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]) else { return }
        try? patched.write(to: report, options: .atomic)
    }
}

/// A join's chunk fetcher: told to stop, and waited for.
final class ChunkFetching: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false
    private var failed: String?

    var stopped: Bool { condition.withLock { stopping } }
    /// Why fetching failed for good, if it did.
    var failure: String? { condition.withLock { failed } }

    func fail(_ why: String) { condition.withLock { failed = why } }

    func done() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Stops the fetcher and waits for it (off the cooperative pool).
    func finish() async {
        condition.withLock { stopping = true }
        _ = try? await AttemptOutput.onFileThread {
            self.condition.withLock { while !self.finished { self.condition.wait() } }
        }
    }
}
