import ArgumentParser
import Foundation
import JWTKit
import StageMixCommandLine
import StageMixOptions
import StageMixService

extension StageMix {
    /// `stagemix token`: an API token for curl and scripts.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an HS256 API token: iss = the API key, signed with its secret, with grants and a lifetime.")

        @Option(help: "The API key (the token's iss).") var key: String
        @Option(name: .customLong("secret-file"), help: "File holding the key's secret (surrounding whitespace ignored).") var secretFile: String
        @Option(help: "compose, read or cancel (repeatable).") var grant: [String] = []
        @Option(help: "Lifetime such as 10m, 90s or 1h; at most 1h.") var ttl: String = "10m"

        static func seconds(_ text: String) -> Double? {
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
            if let last = text.last, let unit = units[last], let n = Double(text.dropLast()), n.isFinite, n > 0 { return n * unit }
            if let n = Double(text), n.isFinite, n > 0 { return n }
            return nil
        }

        func validate() throws {
            guard let seconds = Self.seconds(ttl), seconds <= 3600 else {
                throw ValidationError("--ttl must be a lifetime such as 10m, 90s or 1h, at most 1h (the service refuses longer tokens)")
            }
            if grant.isEmpty { throw ValidationError("give at least one --grant: compose, read or cancel") }
            for g in grant where Grant(rawValue: g) == nil {
                throw ValidationError("--grant must be compose, read or cancel, not \(g)")
            }
        }

        func run() async throws {
            // A secret file that cannot be read is bad input, said in one line (exit 65), not a usage screen.
            try await runReportingErrors { try await sign() }
        }

        private func sign() async throws {
            let secret: String
            do {
                secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                let why = FileManager.default.fileExists(atPath: secretFile) ? "cannot read it" : "no such file"
                throw BadInput(SecretFileProblem("--secret-file \(secretFile): \(why)"))
            }
            guard secret.utf8.count >= APIKeyStore.minimumSecretBytes else {
                throw BadInput(SecretFileProblem("--secret-file \(secretFile): the secret must be at least \(APIKeyStore.minimumSecretBytes) bytes"))
            }
            let now = Date()
            let claims = AccessClaims(apiKey: key, expires: now.addingTimeInterval(Self.seconds(ttl) ?? 600), notBefore: now.addingTimeInterval(-1),
                                      issuedAt: now, grants: grant.compactMap(Grant.init(rawValue:)))
            let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            print(try await keys.sign(claims))
        }
    }
}

/// What is wrong with `--secret-file`, in the words `stagemix token` prints.
struct SecretFileProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
