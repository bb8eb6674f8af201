import Foundation
import Logging
import NIOPosix
import SQLiteNIO

/// The job queue in one SQLite file, for one machine. Several worker processes may share the
/// file: WAL mode lets readers go on while one writes, each claim is one `BEGIN IMMEDIATE`
/// transaction (so two processes never claim the same job), and a busy timeout makes a
/// writer wait its turn instead of failing.
public final class SQLiteJobQueue: SQLJobStore {
    public let path: String
    public let options: QueueOptions
    public var lockRows: String { "" }
    public var lockRowsSkippingLocked: String { "" }

    private let connection: SQLiteConnection
    /// A thread of its own: a statement waiting out the busy timeout blocks its thread, and on a
    /// shared pool that could starve the connection holding the lock.
    private let threadPool: NIOThreadPool
    private let lock = AsyncLock()

    public static func open(path: String, options: QueueOptions = QueueOptions(), busyTimeoutMilliseconds: Int = 15_000) async throws -> SQLiteJobQueue {
        var logger = Logger(label: "stagemix.queue.sqlite")
        logger.logLevel = .warning
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        do {
            _ = try await connection.query("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA synchronous = NORMAL")
            let queue = SQLiteJobQueue(path: path, options: options, connection: connection, threadPool: threadPool)
            try await queue.transaction { tx in
                for statement in JobSQL.createStatements(real: "REAL", integer: "INTEGER") {
                    _ = try await tx.query(statement, [])
                }
                // SQLite has no ADD COLUMN IF NOT EXISTS: the table's own column list says.
                for added in JobSQL.addedColumns(real: "REAL", integer: "INTEGER") {
                    let present = try await tx.query("SELECT 1 AS n FROM pragma_table_info('\(added.table)') WHERE name = $1", [.text(added.column)])
                    if present.isEmpty { _ = try await tx.query("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.type)", []) }
                }
                for statement in JobSQL.afterAddingColumns { _ = try await tx.query(statement, []) }
            }
            return queue
        } catch {
            try? await connection.close()
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    private init(path: String, options: QueueOptions, connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.path = path
        self.options = options
        self.connection = connection
        self.threadPool = threadPool
    }

    public func transaction<R: Sendable>(_ body: @Sendable (any SQLJobTransaction) async throws -> R) async throws -> R {
        try await lock.withLock {
            _ = try await connection.query("BEGIN IMMEDIATE")
            do {
                let result = try await body(Transaction(connection: connection, now: Date().timeIntervalSince1970))
                _ = try await connection.query("COMMIT")
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK")
                throw error
            }
        }
    }

    public func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await lock.withLock { try await Self.run(sql, binds, on: connection) }
    }

    public func waitForWork(timeout: Duration) async {
        // SQLite has no notifications across processes: idle workers poll.
        try? await Task.sleep(for: timeout)
    }

    public func close() async {
        try? await connection.close()
        try? await threadPool.shutdownGracefully()
    }

    private struct Transaction: SQLJobTransaction {
        let connection: SQLiteConnection
        let now: Double

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            try await SQLiteJobQueue.run(sql, binds, on: connection)
        }

        func notifyWorkAvailable() async throws {}
    }

    private static func run(_ sql: String, _ binds: [SQLValue], on connection: SQLiteConnection) async throws -> [SQLRow] {
        // `$1` in the shared SQL becomes SQLite's numbered `?1`.
        let rows = try await connection.query(sql.replacingOccurrences(of: "$", with: "?"), binds.map(\.sqliteData))
        return rows.map { row in
            var out = SQLRow()
            for column in row.columns { out[column.name] = SQLValue(column.data) }
            return out
        }
    }
}

extension SQLValue {
    fileprivate var sqliteData: SQLiteData {
        switch self {
        case .text(let s): .text(s)
        case .integer(let i): .integer(i)
        case .real(let d): .float(d)
        case .null: .null
        }
    }

    fileprivate init(_ data: SQLiteData) {
        switch data {
        case .text(let s): self = .text(s)
        case .integer(let i): self = .integer(Int(i))
        case .float(let d): self = .real(d)
        case .blob, .null: self = .null
        }
    }
}
