import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for tests: initdb in a temporary directory, started with pg_ctl on
/// a free loopback port, as the `postgres` system user when the tests run as root (initdb and
/// postgres refuse to run as root), stopped when the test process exits.
final class TemporaryPostgres: Sendable {
    static let binDirectory = "/usr/lib/postgresql/15/bin"

    let directory: String
    let port: Int

    /// One server shared by the tests that need no server of their own; each test makes its own database.
    static let shared = Task { try await TemporaryPostgres.start() }

    static func start() async throws -> TemporaryPostgres {
        guard FileManager.default.isExecutableFile(atPath: "\(binDirectory)/initdb") else {
            throw TestFailure("PostgreSQL 15 server binaries are missing at \(binDirectory): install the postgresql package (scripts/install-deps does)")
        }
        let directory = try makeTemporaryDirectory(prefix: "stagemix-pg")
        if getuid() == 0 {
            try await run("/bin/chown", ["-R", "postgres:postgres", directory])
        }
        let server = TemporaryPostgres(directory: directory, port: try freeLoopbackPort())
        try await server.asServerUser("\(binDirectory)/initdb", ["-D", server.dataDirectory, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"])
        try await server.startServer()
        registerForCleanup(server)
        return server
    }

    private init(directory: String, port: Int) {
        self.directory = directory
        self.port = port
    }

    var dataDirectory: String { "\(directory)/data" }

    /// Makes a fresh database and returns its queue URL.
    func makeDatabase() async throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await run("\(Self.binDirectory)/psql", ["-X", "-q", "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-c", "CREATE DATABASE \(name)"])
        return "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    func startServer() async throws {
        try await asServerUser("\(Self.binDirectory)/pg_ctl", [
            "-D", dataDirectory, "-l", "\(directory)/server.log", "-w", "-t", "30", "start",
            "-o", "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
        ])
    }

    func stopServer(mode: String = "fast") async throws {
        try await asServerUser("\(Self.binDirectory)/pg_ctl", ["-D", dataDirectory, "-w", "-m", mode, "stop"])
    }

    func restart() async throws {
        try await stopServer()
        try await startServer()
    }

    /// Stops the server at once and removes its files; blocking, as it also runs at process exit.
    func destroy() {
        let pgctl = "\(Self.binDirectory)/pg_ctl -D '\(dataDirectory)' -w -m immediate stop >/dev/null 2>&1"
        _ = system(getuid() == 0 ? "/sbin/runuser -u postgres -- \(pgctl)" : pgctl)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func asServerUser(_ executable: String, _ arguments: [String]) async throws {
        if getuid() == 0 {
            try await run("/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
        } else {
            try await run(executable, arguments)
        }
    }
}

private let cleanupList = LockedList()

private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: [TemporaryPostgres] = []

    func add(_ server: TemporaryPostgres) { lock.withLock { servers.append(server) } }
    func drain() -> [TemporaryPostgres] { lock.withLock { defer { servers = [] }; return servers } }
}

private func registerForCleanup(_ server: TemporaryPostgres) {
    cleanupList.add(server)
    struct Once { nonisolated(unsafe) static var done = false }
    if !Once.done {
        Once.done = true
        atexit { for server in cleanupList.drain() { server.destroy() } }
    }
}
