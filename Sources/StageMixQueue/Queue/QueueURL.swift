import Foundation

/// Where the queue lives: `sqlite:PATH` (one machine) or `postgres://user:pass@host:port/db` (many),
/// the latter with libpq's TLS parameters `sslmode` and `sslrootcert`.
public enum QueueURL: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(host: String, port: Int, username: String, password: String?, database: String?,
                  tls: PostgresTLS = .default)

    public static let `default` = QueueURL.sqlite(path: "./stagemix-queue.sqlite")

    public init(_ string: String) throws {
        if string.hasPrefix("sqlite:") {
            var path = String(string.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw QueueError(.badURL, "sqlite: needs a file path, as in sqlite:./stagemix-queue.sqlite") }
            self = .sqlite(path: path)
            return
        }
        guard string.hasPrefix("postgres://") || string.hasPrefix("postgresql://"),
              let components = URLComponents(string: string), let host = components.host, !host.isEmpty
        else {
            throw QueueError(.badURL, "queue URL must be sqlite:PATH or postgres://user:pass@host:port/db, not \(string)")
        }
        let database = components.path.split(separator: "/").first.map(String.init)
        self = .postgres(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database, tls: try Self.tls(components.queryItems ?? [])
        )
    }

    /// The TLS settings of a postgres URL's query. Any other parameter is an error rather than ignored:
    /// a silently dropped `sslcert` or misspelt `sslmode` would connect with less protection than asked for.
    private static func tls(_ items: [URLQueryItem]) throws -> PostgresTLS {
        var tls = PostgresTLS.default
        for item in items {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(PostgresTLS.Mode.init(rawValue:)) else {
                    let modes = PostgresTLS.Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw QueueError(.badURL, "sslmode must be one of \(modes), not '\(item.value ?? "")'")
                }
                tls.mode = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else {
                    throw QueueError(.badURL, "sslrootcert needs the path of a PEM file of trusted roots")
                }
                tls.rootCertificatePath = path
            default:
                throw QueueError(.badURL, "unsupported queue URL parameter '\(item.name)' (supported: sslmode, sslrootcert)")
            }
        }
        return tls
    }

    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let host, let port, let username, let password, let database, let tls):
            "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database ?? "")"
                + (tls == .default ? "" : "?\(tls)")
        }
    }

    /// Opens the queue, creating its table if needed.
    public func open(options: QueueOptions = QueueOptions()) async throws -> any JobQueue {
        switch self {
        case .sqlite(let path):
            try await SQLiteJobQueue.open(path: path, options: options)
        case .postgres(let host, let port, let username, let password, let database, let tls):
            try await PostgresJobQueue.connect(
                host: host, port: port, username: username, password: password, database: database, tls: tls, options: options
            )
        }
    }

    /// Opens the queue, runs `body`, and closes the queue whether `body` returns or throws.
    public func withQueue<R: Sendable>(options: QueueOptions = QueueOptions(), _ body: (any JobQueue) async throws -> R) async throws -> R {
        let queue = try await open(options: options)
        do {
            let result = try await body(queue)
            await queue.close()
            return result
        } catch {
            await queue.close()
            throw error
        }
    }
}
