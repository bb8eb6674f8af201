import NIOSSL

/// How a PostgreSQL queue connection uses TLS, as libpq's `sslmode` and `sslrootcert` say it
/// (`postgres://host/db?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem`), so a queue URL means
/// what the same URL means to `psql`.
public struct PostgresTLS: Sendable, Equatable, CustomStringConvertible {
    public enum Mode: String, Sendable, CaseIterable {
        /// Plain TCP only.
        case disable
        /// libpq tries plain first; here TLS is tried first (postgres-nio has no plain-first mode), which
        /// never gives less protection.
        case allow
        /// TLS when the server offers it, else plain; the certificate is not checked. libpq's default.
        case prefer
        /// TLS or no connection; the certificate is not checked unless `sslrootcert` is given.
        case require
        /// TLS, and the server's certificate must chain to a trusted root.
        case verifyCA = "verify-ca"
        /// TLS, a trusted chain, and the certificate must name the host connected to.
        case verifyFull = "verify-full"
    }

    public var mode: Mode
    /// PEM file of the roots to trust (`sslrootcert`); without it, the system's roots.
    public var rootCertificatePath: String?

    public init(mode: Mode = .prefer, rootCertificatePath: String? = nil) {
        self.mode = mode
        self.rootCertificatePath = rootCertificatePath
    }

    /// libpq's default: TLS if the server offers it.
    public static let `default` = PostgresTLS()

    public var description: String {
        "sslmode=\(mode.rawValue)" + (rootCertificatePath.map { "&sslrootcert=\($0)" } ?? "")
    }

    /// How strictly the server's certificate is checked.
    var verification: CertificateVerification {
        switch mode {
        case .disable, .allow, .prefer: .none
        // As libpq: `require` with a root certificate file given checks the chain, like verify-ca.
        case .require: rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: .noHostnameVerification
        case .verifyFull: .fullVerification
        }
    }

    /// When a connection uses TLS, and with which client configuration.
    enum Use {
        case never
        /// TLS when the server offers it, else plain (`allow`, `prefer`).
        case ifOffered(TLSConfiguration)
        /// TLS or no connection.
        case always(TLSConfiguration)
    }

    /// What these settings ask of a connection: the one place sslmode becomes a TLS policy.
    var use: Use {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verification
        if let rootCertificatePath { configuration.trustRoots = .file(rootCertificatePath) }
        switch mode {
        case .disable: return .never
        case .allow, .prefer: return .ifOffered(configuration)
        case .require, .verifyCA, .verifyFull: return .always(configuration)
        }
    }
}
