/// The lifecycle of a chunked composition's job between its phases (``ChunkPhase``). Between the
/// plan and the join the job stays `running` with no lease: to a watcher the composition is being
/// composed, and no rescue or heartbeat applies to it; its chunks are jobs of their own.
extension Job {
    /// True when the chunks are all done and the join waits for a worker.
    public var isJoinReady: Bool {
        state == .running && leaseOwner == nil && phase == .join
    }

    /// True while the composition waits for its chunks.
    public var isWaitingForChunks: Bool {
        state == .running && leaseOwner == nil && phase == .chunks
    }

    /// The plan attempt has written the chunks' work: the job lets go of its lease and waits for them.
    public mutating func split(_ lease: JobLease, now: Double) -> FenceResult {
        guard holds(lease), phase == .plan, !cancelRequested else { return .fenced }
        phase = .chunks
        progress = max(progress, Self.plannedPercent)
        leaseOwner = nil
        leaseExpiresAt = nil
        updatedAt = now
        return .applied
    }

    /// How far a chunked composition is once planned; its chunks take it to ``chunkedPercent``, the join to 100.
    public static let plannedPercent = 2.0
    public static let chunkedPercent = 95.0

    /// Its chunks have moved: every one done queues the join (first in line: it keeps the composition's
    /// place); one dead fails the composition; otherwise progress is theirs, never going back.
    public mutating func settle(chunks: [Job], now: Double) {
        guard isWaitingForChunks else { return }
        if let dead = chunks.first(where: { $0.state == .dead }) {
            state = .dead
            lastError = "chunk \(dead.chunk ?? 0) of \(chunks.count) failed for good: \(dead.lastError ?? "no error recorded")"
            updatedAt = now
            return
        }
        if chunks.allSatisfy({ $0.state == .succeeded }) {
            phase = .join
            runAfter = createdAt
            progress = max(progress, Self.chunkedPercent)
            updatedAt = now
            return
        }
        let done = chunks.reduce(0.0) { $0 + ($1.state == .succeeded ? 100 : min(100, max(0, $1.progress))) }
        let percent = Self.plannedPercent + (Self.chunkedPercent - Self.plannedPercent) * done / (100 * Double(max(1, chunks.count)))
        if percent > progress + 0.05 {
            progress = percent
            updatedAt = now
        }
    }
}
