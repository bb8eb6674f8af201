import Foundation
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Queue URLs with libpq's `sslmode`/`sslrootcert`, against a real PostgreSQL server that accepts TLS
/// connections only, with a certificate from a test CA that names `localhost` alone.
@Suite("PostgreSQL queue over TLS", .serialized)
struct PostgresTLSTests {
    struct Server {
        let postgres: TemporaryPostgres
        let certificates: TestCertificates
        let database: String

        func url(host: String = "127.0.0.1", _ query: String = "") -> String {
            "postgres://postgres@\(host):\(postgres.port)/\(database)" + (query.isEmpty ? "" : "?\(query)")
        }
    }

    static let server = Task { () throws -> Server in
        let certificates = try await TestCertificates.make()
        let postgres = try await TemporaryPostgres.start(tls: certificates)
        // The database is made over the Unix socket (pg_hba's `local` line), as TCP needs TLS.
        let database = try await postgres.makeDatabase(overSocket: true)
        return Server(postgres: postgres, certificates: certificates, database: database)
    }

    /// Opens the queue at `url`, enqueues a job and reads it back.
    func roundTrip(_ url: String) async throws {
        let queue = try await QueueURL(url).open()
        do {
            let spec = JobSpec(capture: "/c/\(UUID().uuidString)", out: "/o/tls")
            let id = try await queue.enqueue(spec, maxAttempts: 1).id
            #expect(try await queue.job(id: id)?.spec == spec.normalised())
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
    }

    /// Opening the queue at `url` must fail; returns what the error said.
    func refused(_ url: String) async throws -> String {
        do {
            let queue = try await QueueURL(url).open()
            await queue.close()
            Issue.record("\(url) connected")
            return ""
        } catch {
            return String(describing: error)
        }
    }

    @Test func requireEncryptsWithoutCheckingTheCertificate() async throws {
        let server = try await Self.server.value
        try await roundTrip(server.url("sslmode=require"))
    }

    @Test func noSSLModeMeansPreferAsInLibpqAndUsesTLSWhenOffered() async throws {
        let server = try await Self.server.value
        try await roundTrip(server.url())
    }

    @Test func disableIsRefusedByAServerThatOnlyTakesTLS() async throws {
        let server = try await Self.server.value
        let message = try await refused(server.url("sslmode=disable"))
        #expect(message.contains("no encryption"), "\(message)")
    }

    @Test func verifyFullChecksTheChainAndTheHostName() async throws {
        let server = try await Self.server.value
        let root = "sslrootcert=\(server.certificates.caCertificate)"
        try await roundTrip(server.url(host: "localhost", "sslmode=verify-full&\(root)"))
        // The certificate names localhost, not 127.0.0.1: the chain is good, the name is not.
        let message = try await refused(server.url("sslmode=verify-full&\(root)"))
        #expect(message.contains("failedToValidateHostname"), "\(message)")
        try await roundTrip(server.url("sslmode=verify-ca&\(root)"))
    }

    @Test func anUntrustedCertificateIsRefused() async throws {
        let server = try await Self.server.value
        // The test CA is not among the system's roots.
        for url in [server.url(host: "localhost", "sslmode=verify-full"), server.url("sslmode=verify-ca"),
                    // `require` with a root file checks the chain, as libpq does; roots that did not sign it fail.
                    server.url("sslmode=require&sslrootcert=\(server.certificates.unrelatedCACertificate)")] {
            let message = try await refused(url)
            #expect(message.contains("CERTIFICATE_VERIFY_FAILED") && message.contains("cannot connect to"), "\(message)")
        }
    }

    @Test func aMissingRootFileIsABadURLNamingTheFile() async throws {
        let server = try await Self.server.value
        let message = try await refused(server.url("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"))
        #expect(message.contains("/nonexistent/ca.pem"), "\(message)")
    }
}
