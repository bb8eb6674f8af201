import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The job queue in PostgreSQL, for workers on many machines. Claims take a row with
/// `FOR UPDATE SKIP LOCKED`, so concurrent workers pass over each other's rows instead of
/// waiting; enqueues and releases `NOTIFY` so idle workers wake at once, with polling as the
/// fallback. Times come from the server's clock, so workers' clocks need not agree.
/// The connection pool reconnects by itself after the server restarts.
public final class PostgresJobQueue: SQLJobStore {
    static let channel = "stagemix_jobs"

    public let options: QueueOptions
    public var lockRows: String { " FOR UPDATE" }
    public var lockRowsSkippingLocked: String { " FOR UPDATE SKIP LOCKED" }

    private let client: PostgresClient
    private let logger: Logger
    private let bell = WakeBell()
    private let runTask: Task<Void, Never>
    private let listenTask: Task<Void, Never>

    public static func connect(
        host: String, port: Int, username: String, password: String?, database: String?,
        tls: PostgresTLS = .default, options: QueueOptions = QueueOptions()
    ) async throws -> PostgresJobQueue {
        if let root = tls.rootCertificatePath, !FileManager.default.isReadableFile(atPath: root) {
            throw QueueError(.badURL, "sslrootcert \(root): no such readable file")
        }
        let mode: PostgresClient.Configuration.TLS = switch tls.use {
        case .never: .disable
        case .ifOffered(let c): .prefer(c)
        case .always(let c): .require(c)
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode
        )
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.keepAliveBehavior = .init(frequency: .seconds(10))
        var logger = Logger(label: "stagemix.queue.postgres")
        logger.logLevel = .critical
        try await probe(host: host, port: port, username: username, password: password, database: database, tls: tls, logger: logger)
        let queue = PostgresJobQueue(client: PostgresClient(configuration: configuration, backgroundLogger: logger), logger: logger, options: options)
        do {
            try await queue.transaction { tx in
                // Several workers may start at once: one creates the schema, the others wait.
                _ = try await tx.query("SELECT pg_advisory_xact_lock(7346298151)", [])
                for statement in JobSQL.createStatements(real: "DOUBLE PRECISION", integer: "BIGINT") {
                    _ = try await tx.query(statement, [])
                }
                // Only when missing: ALTER TABLE locks the table whole, even when there is nothing to add.
                for added in JobSQL.addedColumns(real: "DOUBLE PRECISION", integer: "BIGINT") {
                    let present = try await tx.query(
                        "SELECT 1 AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2",
                        [.text(added.table), .text(added.column)])
                    if present.isEmpty { _ = try await tx.query("ALTER TABLE \(added.table) ADD COLUMN \(added.column) \(added.type)", []) }
                }
                for statement in JobSQL.afterAddingColumns { _ = try await tx.query(statement, []) }
            }
        } catch {
            await queue.close()
            throw error
        }
        return queue
    }

    /// Connects once, directly, before the pool starts: a wrong address, password or TLS setting then
    /// fails at once with the server's own words, where the pool would retry in silence for a minute.
    private static func probe(host: String, port: Int, username: String, password: String?, database: String?,
                              tls: PostgresTLS, logger: Logger) async throws {
        let where_ = "postgres://\(username)@\(host):\(port)/\(database ?? "") (\(tls))"
        let mode: PostgresConnection.Configuration.TLS
        do {
            switch tls.use {
            case .never: mode = .disable
            case .ifOffered(let c): mode = .prefer(try NIOSSLContext(configuration: c))
            case .always(let c): mode = .require(try NIOSSLContext(configuration: c))
            }
        } catch {
            throw QueueError(.badURL, "TLS settings for \(where_): \(error)")
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: mode)
        configuration.options.connectTimeout = .seconds(5)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
        } catch let error as PSQLError {
            throw QueueError(.serverUnavailable, "cannot connect to \(where_): \(Self.explain(error))")
        }
    }

    /// What went wrong, in words: the server's message when it sent one, else the connection's failure
    /// (PSQLError's own description is deliberately vague).
    static func explain(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return message + code
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    private init(client: PostgresClient, logger: Logger, options: QueueOptions) {
        self.client = client
        self.logger = logger
        self.options = options
        self.runTask = Task { await client.run() }
        let bell = self.bell
        self.listenTask = Task {
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            // Anything sent while we were not listening is lost: look once now.
                            bell.ring()
                            for try await _ in notifications { bell.ring() }
                        }
                    }
                } catch {}
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    public func transaction<R: Sendable>(_ body: @Sendable (any SQLJobTransaction) async throws -> R) async throws -> R {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let now = try await Self.run("SELECT extract(epoch FROM clock_timestamp())::float8 AS now", [], on: connection, logger: logger)
                return try await body(Transaction(connection: connection, logger: logger, now: now.first?["now"]?.double ?? 0))
            }
        } catch let error as PostgresTransactionError {
            // Callers want the error the body threw (no such job, say), not the wrapper.
            throw error.closureError ?? error
        }
    }

    public func read(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let logger = logger
        return try await client.withConnection { connection in try await Self.run(sql, binds, on: connection, logger: logger) }
    }

    public func waitForWork(timeout: Duration) async {
        await bell.wait(timeout: timeout)
    }

    public func close() async {
        listenTask.cancel()
        runTask.cancel()
        _ = await listenTask.value
        _ = await runTask.value
    }

    private struct Transaction: SQLJobTransaction {
        let connection: PostgresConnection
        let logger: Logger
        let now: Double

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            try await PostgresJobQueue.run(sql, binds, on: connection, logger: logger)
        }

        func notifyWorkAvailable() async throws {
            _ = try await query("NOTIFY \(PostgresJobQueue.channel)", [])
        }
    }

    private static func run(_ sql: String, _ binds: [SQLValue], on connection: PostgresConnection, logger: Logger) async throws -> [SQLRow] {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds {
            switch bind {
            case .text(let s): bindings.append(s)
            case .integer(let i): bindings.append(i)
            case .real(let d): bindings.append(d)
            case .null: bindings.appendNull()
            }
        }
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        var out: [SQLRow] = []
        for try await row in rows {
            var decoded = SQLRow()
            for cell in row { decoded[cell.columnName] = try SQLValue(cell) }
            out.append(decoded)
        }
        return out
    }
}

extension SQLValue {
    fileprivate init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        default: self = .text(try cell.decode(String.self))
        }
    }
}
