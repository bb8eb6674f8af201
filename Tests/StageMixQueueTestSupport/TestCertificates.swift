import Foundation

/// A certificate authority and a server certificate it signed, made with the `openssl` command line
/// for one test run: the server's certificate names `localhost` only, so connecting to 127.0.0.1
/// with hostname verification must fail while chain verification alone succeeds.
public struct TestCertificates: Sendable {
    public let directory: String
    public var caCertificate: String { "\(directory)/ca.crt" }
    public var serverCertificate: String { "\(directory)/server.crt" }
    public var serverKey: String { "\(directory)/server.key" }
    /// A second CA that signed nothing here.
    public var unrelatedCACertificate: String { "\(directory)/unrelated-ca.crt" }

    public static func make() async throws -> TestCertificates {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-tls")
        let certs = TestCertificates(directory: directory)
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else {
            throw TestFailure("the openssl command line is missing: install the openssl package (scripts/install-deps does)")
        }
        _ = try await run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                    "-subj", "/CN=StageMix test CA", "-keyout", "\(directory)/ca.key", "-out", certs.caCertificate])
        _ = try await run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                    "-subj", "/CN=Unrelated CA", "-keyout", "\(directory)/unrelated-ca.key",
                                    "-out", certs.unrelatedCACertificate])
        _ = try await run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                                    "-keyout", certs.serverKey, "-out", "\(directory)/server.csr"])
        try "subjectAltName=DNS:localhost\n".write(toFile: "\(directory)/san.ext", atomically: false, encoding: .utf8)
        _ = try await run(openssl, ["x509", "-req", "-in", "\(directory)/server.csr", "-CA", certs.caCertificate,
                                    "-CAkey", "\(directory)/ca.key", "-CAcreateserial", "-days", "2",
                                    "-extfile", "\(directory)/san.ext", "-out", certs.serverCertificate])
        return certs
    }
}
