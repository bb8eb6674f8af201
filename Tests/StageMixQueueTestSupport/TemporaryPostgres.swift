import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for tests: initdb in a temporary directory, started with pg_ctl on
/// a free loopback port, as the `postgres` system user when the tests run as root (initdb and
/// postgres refuse to run as root), stopped when the test process exits.
public final class TemporaryPostgres: Sendable {
    public static let binDirectory = "/usr/lib/postgresql/15/bin"

    public let directory: String
    public let port: Int
    /// With TLS, the server accepts TLS connections only (`hostssl` lines alone in pg_hba.conf).
    public let tls: TestCertificates?

    /// One server shared by the tests that need no server of their own; each test makes its own database.
    public static let shared = Task { try await TemporaryPostgres.start() }

    public static func start(tls: TestCertificates? = nil) async throws -> TemporaryPostgres {
        guard FileManager.default.isExecutableFile(atPath: "\(binDirectory)/initdb") else {
            throw TestFailure("PostgreSQL 15 server binaries are missing at \(binDirectory): install the postgresql package (scripts/install-deps does)")
        }
        let directory = try makeTemporaryDirectory(prefix: "stagemix-pg")
        if getuid() == 0 {
            try await run("/bin/chown", ["-R", "postgres:postgres", directory])
        }
        let server = TemporaryPostgres(directory: directory, port: try freeLoopbackPort(), tls: tls)
        try await server.asServerUser("\(binDirectory)/initdb", ["-D", server.dataDirectory, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"])
        if let tls {
            try server.installTLS(tls)
        }
        try await server.startServer()
        registerForCleanup(server)
        return server
    }

    private init(directory: String, port: Int, tls: TestCertificates?) {
        self.directory = directory
        self.port = port
        self.tls = tls
    }

    /// Puts the server's certificate and key in the data directory, owned by the server's user
    /// (postgres refuses a key others can read), and allows TCP connections over TLS only.
    private func installTLS(_ tls: TestCertificates) throws {
        let files = FileManager.default
        for (from, to) in [(tls.serverCertificate, "server.crt"), (tls.serverKey, "server.key")] {
            try files.copyItem(atPath: from, toPath: "\(dataDirectory)/\(to)")
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: "\(dataDirectory)/\(to)")
            if getuid() == 0 { chownToServerUser("\(dataDirectory)/\(to)") }
        }
        try """
        local all all trust
        hostssl all all 127.0.0.1/32 trust
        hostssl all all ::1/128 trust
        """.write(toFile: "\(dataDirectory)/pg_hba.conf", atomically: false, encoding: .utf8)
    }

    public var dataDirectory: String { "\(directory)/data" }

    /// Makes a fresh database and returns its queue URL.
    public func makeDatabase() async throws -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(try await makeDatabase(overSocket: false))"
    }

    /// Makes a fresh database, through the server's Unix socket or over TCP, and returns its name.
    public func makeDatabase(overSocket: Bool) async throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let host = overSocket ? directory : "127.0.0.1"
        try await run("\(Self.binDirectory)/psql", ["-X", "-q", "-h", host, "-p", "\(port)", "-U", "postgres", "-d", "postgres", "-c", "CREATE DATABASE \(name)"])
        return name
    }

    public func startServer() async throws {
        try await asServerUser("\(Self.binDirectory)/pg_ctl", [
            "-D", dataDirectory, "-l", "\(directory)/server.log", "-w", "-t", "30", "start",
            "-o", "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
                + (tls == nil ? "" : " -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key"),
        ])
    }

    public func stopServer(mode: String = "fast") async throws {
        try await asServerUser("\(Self.binDirectory)/pg_ctl", ["-D", dataDirectory, "-w", "-m", mode, "stop"])
    }

    public func restart() async throws {
        try await stopServer()
        try await startServer()
    }

    /// Stops the server at once and removes its files; blocking, as it also runs at process exit.
    public func destroy() {
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

private func chownToServerUser(_ path: String) {
    guard let user = getpwnam("postgres") else { return }
    _ = chown(path, user.pointee.pw_uid, user.pointee.pw_gid)
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
