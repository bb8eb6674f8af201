import Foundation

/// What a SQL backend provides (public only so the public queues can conform): transactions
/// over one connection, in its own dialect.
/// The queue operations themselves are written once, in `SQLJobStore+JobQueue.swift`.
public protocol SQLJobStore: JobQueue {
    var options: QueueOptions { get }
    /// Appended to a SELECT that picks rows to change: `FOR UPDATE` in PostgreSQL, nothing
    /// in SQLite, where `BEGIN IMMEDIATE` already holds the database's write lock.
    var lockRows: String { get }
    /// Likewise for rows any worker may pick: `FOR UPDATE SKIP LOCKED` in PostgreSQL.
    var lockRowsSkippingLocked: String { get }
    /// Runs `body` in a write transaction, committing if it returns.
    func transaction<R: Sendable>(_ body: @Sendable (any SQLJobTransaction) async throws -> R) async throws -> R
    /// A read outside any transaction.
    func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
}

/// Statements inside one transaction. SQL uses `$1`-style placeholders in both dialects.
public protocol SQLJobTransaction: Sendable {
    /// The queue's clock at the start of the transaction.
    var now: Double { get }
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// Wakes idle workers once this transaction commits (PostgreSQL NOTIFY; nothing in SQLite).
    func notifyWorkAvailable() async throws
}

/// SQL shared by both backends.
enum JobSQL {
    static let columns = """
        id, dedupe_key, spec, state, attempt, max_attempts, lease_owner, lease_expires_at, \
        run_after, progress, last_error, cancel_requested, created_at, updated_at, phase, parent_id, chunk, started_at, \
        recorded_seconds, composed_seconds
        """

    static let activeStates = JobState.active.map { "'\($0.rawValue)'" }.joined(separator: ", ")

    static func createStatements(real: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS stagemix_jobs (
                id TEXT PRIMARY KEY,
                dedupe_key TEXT NOT NULL,
                spec TEXT NOT NULL,
                state TEXT NOT NULL,
                attempt \(integer) NOT NULL,
                max_attempts \(integer) NOT NULL,
                lease_owner TEXT,
                lease_expires_at \(real),
                run_after \(real) NOT NULL,
                progress \(real) NOT NULL,
                last_error TEXT,
                cancel_requested \(integer) NOT NULL,
                created_at \(real) NOT NULL,
                updated_at \(real) NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX IF NOT EXISTS stagemix_jobs_active_spec ON stagemix_jobs (dedupe_key) WHERE state IN (\(activeStates))",
            "CREATE INDEX IF NOT EXISTS stagemix_jobs_runnable ON stagemix_jobs (state, run_after)",
        ] + CompositionSQL.createStatements(real: real, integer: integer) + JanusSQL.createStatements(real: real, integer: integer)
    }

    /// Columns added after the tables were first made, each nullable: a database made by an earlier
    /// version gains them when opened (the jobs' chunk columns, a followed composition's positions, the
    /// Twilio-shaped API's).
    static func addedColumns(real: String, integer: String) -> [(table: String, column: String, type: String)] {
        [
            ("stagemix_jobs", "phase", "TEXT"),
            ("stagemix_jobs", "parent_id", "TEXT"),
            ("stagemix_jobs", "chunk", integer),
            ("stagemix_jobs", "started_at", real),
            ("stagemix_jobs", "recorded_seconds", real),
            ("stagemix_jobs", "composed_seconds", real),
        ] + CompositionSQL.addedColumns
    }

    /// Statements run once the added columns are there.
    static let afterAddingColumns = [
        "CREATE INDEX IF NOT EXISTS stagemix_jobs_by_parent ON stagemix_jobs (parent_id, chunk)",
    ]

    static func insert(_ job: Job) -> (String, [SQLValue]) {
        (
            """
            INSERT INTO stagemix_jobs (\(columns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
            ON CONFLICT (dedupe_key) WHERE state IN (\(activeStates)) DO NOTHING
            RETURNING id
            """,
            [
                .text(job.id), .text(job.dedupeKey), .text(job.spec.canonicalJSON), .text(job.state.rawValue),
                .integer(job.attempt), .integer(job.maxAttempts), SQLValue(job.leaseOwner), SQLValue(job.leaseExpiresAt),
                .real(job.runAfter), .real(job.progress), SQLValue(job.lastError), .integer(job.cancelRequested ? 1 : 0),
                .real(job.createdAt), .real(job.updatedAt), SQLValue(job.phase?.rawValue), SQLValue(job.parentID),
                SQLValue(job.chunk), SQLValue(job.startedAt),
                SQLValue(job.followPosition?.recordedSeconds), SQLValue(job.followPosition?.composedSeconds),
            ]
        )
    }

    /// Writes `job` back over `old`, only if the row still is what was read (attempt and lease owner).
    static func update(_ job: Job, over old: Job) -> (String, [SQLValue]) {
        (
            """
            UPDATE stagemix_jobs SET state = $2, attempt = $3, lease_owner = $4, lease_expires_at = $5,
                run_after = $6, progress = $7, last_error = $8, cancel_requested = $9, updated_at = $10,
                phase = $13, started_at = $14, recorded_seconds = $15, composed_seconds = $16
            WHERE id = $1 AND attempt = $11 AND COALESCE(lease_owner, '') = $12
            RETURNING id
            """,
            [
                .text(job.id), .text(job.state.rawValue), .integer(job.attempt), SQLValue(job.leaseOwner),
                SQLValue(job.leaseExpiresAt), .real(job.runAfter), .real(job.progress), SQLValue(job.lastError),
                .integer(job.cancelRequested ? 1 : 0), .real(job.updatedAt),
                .integer(old.attempt), .text(old.leaseOwner ?? ""), SQLValue(job.phase?.rawValue), SQLValue(job.startedAt),
                SQLValue(job.followPosition?.recordedSeconds), SQLValue(job.followPosition?.composedSeconds),
            ]
        )
    }

    static func decode(_ row: SQLRow) throws -> Job {
        func text(_ name: String) throws -> String { try row.required(name, of: "job \(row["id"] ?? .null)", \.string) }
        func int(_ name: String) throws -> Int { try row.required(name, of: "job", \.int) }
        func real(_ name: String) throws -> Double { try row.required(name, of: "job", \.double) }
        let spec = try JSONDecoder().decode(JobSpec.self, from: Data(try text("spec").utf8))
        guard let state = JobState(rawValue: try text("state")) else { throw QueueError(.corruptRow, "unknown state") }
        var job = Job(id: try text("id"), spec: spec, maxAttempts: try int("max_attempts"), now: try real("created_at"))
        job.dedupeKey = try text("dedupe_key")
        job.state = state
        job.attempt = try int("attempt")
        job.leaseOwner = row["lease_owner"]?.string
        job.leaseExpiresAt = row["lease_expires_at"]?.double
        job.runAfter = try real("run_after")
        job.progress = try real("progress")
        job.lastError = row["last_error"]?.string
        job.cancelRequested = try int("cancel_requested") != 0
        job.updatedAt = try real("updated_at")
        if let phase = row["phase"]?.string {
            guard let known = ChunkPhase(rawValue: phase) else { throw QueueError(.corruptRow, "unknown phase \(phase)") }
            job.phase = known
        } else {
            job.phase = nil
        }
        job.parentID = row["parent_id"]?.string
        job.chunk = row["chunk"]?.int
        job.startedAt = row["started_at"]?.double
        // Written together, both or neither.
        if let recorded = row["recorded_seconds"]?.double, let composed = row["composed_seconds"]?.double {
            job.followPosition = FollowPosition(recordedSeconds: recorded, composedSeconds: composed)
        }
        return job
    }
}
