import Foundation

/// A chunked composition on the queue (docs/chunks.md, "On the queue"): its plan attempt makes its
/// chunk jobs and readies its join, each chunk's change settles the composition in the same
/// transaction (its progress, or the composition failed when one is dead), and a composition that
/// ends stops its chunks.
extension SQLJobStore {
    /// The plan attempt of `lease` has written the work of `count` chunks: the composition lets go of
    /// its lease, its chunk jobs are queued (with `audio`, the session's audio job first; any made by an
    /// earlier plan go), and its join is ready for a worker's join slot, which joins the chunks as they land.
    public func split(_ lease: JobLease, chunks count: Int, audio: Bool) async throws -> Job.FenceResult {
        let lock = lockRows
        return try await transaction { tx in
            let rows = try await tx.query("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1\(lock)", [.text(lease.jobID)])
            guard let row = rows.first else { return .fenced }
            let old = try JobSQL.decode(row)
            var job = old
            guard job.split(lease, now: tx.now) == .applied else { return .fenced }
            _ = try await tx.query("DELETE FROM stagemix_jobs WHERE parent_id = $1", [.text(job.id)])
            let chunks = (audio && count > 0 ? [Job(sessionAudioOf: job, now: tx.now)] : [])
                + (0..<max(0, count)).map { Job(chunk: $0, of: job, now: tx.now) }
            for chunk in chunks {
                let (sql, binds) = JobSQL.insert(chunk)
                guard try await !tx.query(sql, binds).isEmpty else {
                    throw QueueError(.duplicateActiveJob, "chunk \(chunk.id) is already queued")
                }
            }
            job.settle(chunks: chunks, now: tx.now)
            guard try await Self.write(job, over: old, in: tx, lock: lock) else { return .fenced }
            try await tx.notifyWorkAvailable()
            return .applied
        }
    }

    /// The chunk jobs of composition `id`, in order (none for a job composed whole), its session's audio job apart.
    public func chunks(of id: String) async throws -> [Job] {
        try await read("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE parent_id = $1 AND chunk >= 0 ORDER BY chunk", [.text(id)])
            .map(JobSQL.decode)
    }

    /// The session's audio job of composition `id`; nil when it has none (a job composed whole, a
    /// composition planned by a version before the audio was a job of its own).
    public func sessionAudio(of id: String) async throws -> Job? {
        try await read("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE parent_id = $1 AND chunk = $2", [.text(id), .integer(Job.sessionAudioChunk)])
            .first.map(JobSQL.decode)
    }

    /// How many chunk jobs are in each state, over all compositions (every state present); session audio jobs apart.
    public func countChunksByState() async throws -> [JobState: Int] {
        try await countStates(where: "parent_id IS NOT NULL AND chunk >= 0")
    }

    /// The chunk jobs of composition `id`, in order, its session's audio job first, read inside `tx`.
    static func chunks(of id: String, in tx: any SQLJobTransaction) async throws -> [Job] {
        try await tx.query("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE parent_id = $1 ORDER BY chunk", [.text(id)]).map(JobSQL.decode)
    }

    public func endedChunkedCompositions(withinSeconds seconds: Double) async throws -> [Job] {
        let now = Date().timeIntervalSince1970
        return try await read(
            """
            SELECT \(JobSQL.columns) FROM stagemix_jobs
            WHERE (phase IS NOT NULL OR spec LIKE '%"follow":true%') AND parent_id IS NULL AND state IN ('dead', 'cancelled') AND updated_at >= $1
            ORDER BY updated_at DESC LIMIT 100
            """, [.real(now - seconds)]).map(JobSQL.decode)
    }

    /// The composition a job id belongs to: a chunk's composition, or the job itself.
    func compositionJobID(of id: String) async throws -> String {
        let rows = try await read("SELECT parent_id FROM stagemix_jobs WHERE id = $1", [.text(id)])
        return rows.first?["parent_id"]?.string ?? id
    }

    /// Locks the composition of chunk `id` (if `id` is a chunk), so that a composition is always
    /// locked before its chunks, whichever change comes first.
    static func lockParent(of id: String, in tx: any SQLJobTransaction, lock: String) async throws {
        guard !lock.isEmpty,
              let parent = try await tx.query("SELECT parent_id FROM stagemix_jobs WHERE id = $1", [.text(id)]).first?["parent_id"]?.string
        else { return }
        _ = try await tx.query("SELECT id FROM stagemix_jobs WHERE id = $1\(lock)", [.text(parent)])
    }

    /// A chunk of composition `id` changed: the composition moves on if it can (``Job/settle(chunks:now:)``).
    static func settle(_ id: String, in tx: any SQLJobTransaction, lock: String) async throws {
        // Locked, so that what is written over is what was read (a join claimed meanwhile waits, or is seen).
        guard let row = try await tx.query("SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE id = $1\(lock)", [.text(id)]).first else { return }
        let old = try JobSQL.decode(row)
        var job = old
        job.settle(chunks: try await chunks(of: id, in: tx), now: tx.now)
        guard job != old else { return }
        guard try await write(job, over: old, in: tx, lock: lock) else {
            throw QueueError(.noSuchJob, "composition \(id) changed while its chunk did; the transaction is tried again")
        }
    }

    /// A composition that ended, or was asked to stop, stops its chunks: one not running is cancelled,
    /// a running one is asked to (its worker stops it within a second).
    static func stopChunks(of job: Job, in tx: any SQLJobTransaction, lock: String) async throws {
        guard job.state.isFinal || job.cancelRequested else { return }
        // FOR UPDATE in PostgreSQL: a chunk claimed meanwhile is seen as claimed, not written over.
        let rows = try await tx.query(
            "SELECT \(JobSQL.columns) FROM stagemix_jobs WHERE parent_id = $1 AND state IN ('queued', 'failed', 'running') ORDER BY chunk\(lock)",
            [.text(job.id)])
        for row in rows {
            let old = try JobSQL.decode(row)
            var chunk = old
            _ = chunk.requestCancel(now: tx.now)
            if chunk != old, try await !write(chunk, over: old, in: tx, lock: lock) {
                throw QueueError(.noSuchJob, "chunk \(chunk.id) changed while its composition ended; the transaction is tried again")
            }
        }
    }
}

