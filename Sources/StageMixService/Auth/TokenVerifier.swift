public import Foundation
import JWTKit
import NIOConcurrencyHelpers

/// Checks `Authorization: Bearer <JWT>`: HS256 only, signed with the secret of the API key in `iss`,
/// `exp` required and at most an hour ahead, `nbf` honoured, 60 seconds of leeway for clocks.
/// Anything else is 401; ``Caller/grants`` decide 403 later.
public struct TokenVerifier: Sendable {
    public static let leewaySeconds: Double = 60
    public static let maxLifetimeSeconds: Double = 3600
    let keys: APIKeyStore
    private let collections = NIOLockedValueBox<[String: (secret: String, keys: JWTKeyCollection)]>([:])

    public init(keys: APIKeyStore) { self.keys = keys }

    public func caller(authorization: String?, now: Date = Date()) async throws(Problem) -> Caller {
        guard let authorization else { throw Self.unauthorized("no Authorization header; send Authorization: Bearer <token>") }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Self.unauthorized("the Authorization header must be Bearer <token>")
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard token.utf8.count <= 8192 else { throw Self.unauthorized("the token is longer than 8 KiB") }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw Self.unauthorized("the token is not a JWT (three dot-separated parts)") }
        guard let headerData = Self.base64URL(segments[0]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else {
            throw Self.unauthorized("the token's header is not base64url JSON")
        }
        guard (header["alg"] as? String) == "HS256" else {
            throw Self.unauthorized("the token must be signed with HS256, not \(header["alg"].map { "\($0)" } ?? "no algorithm")")
        }
        guard let payloadData = Self.base64URL(segments[1]),
              let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any] else {
            throw Self.unauthorized("the token's payload is not base64url JSON")
        }
        guard let apiKey = payload["iss"] as? String, !apiKey.isEmpty else {
            throw Self.unauthorized("the token has no iss (the API key)")
        }
        // An unknown key and a wrong signature get the same answer after the same work (a check against
        // a secret nobody has), so API key names cannot be probed.
        let secret = keys.secret(for: apiKey)
        let claims: AccessClaims
        do {
            claims = try await collection(apiKey: secret == nil ? Self.unknownKeyName : apiKey, secret: secret ?? Self.unknownKeySecret)
                .verify(token, as: AccessClaims.self)
            guard secret != nil else { throw Self.unauthorized("") }
        } catch {
            throw Self.unauthorized("the token's signature or claims do not verify (exp, grants and iss are required)")
        }
        let exp = claims.exp.value.timeIntervalSince(now)
        guard exp > -Self.leewaySeconds else { throw Self.unauthorized("the token expired") }
        guard exp <= Self.maxLifetimeSeconds + Self.leewaySeconds else {
            throw Self.unauthorized("the token's exp is more than an hour ahead; make short-lived tokens")
        }
        if let nbf = claims.nbf, nbf.value.timeIntervalSince(now) > Self.leewaySeconds {
            throw Self.unauthorized("the token is not valid yet (nbf)")
        }
        var grants = Set<Grant>()
        for name in claims.grants {
            guard let grant = Grant(rawValue: name) else {
                throw Self.unauthorized("unknown grant '\(name)'; grants are compose, read, cancel")
            }
            grants.insert(grant)
        }
        return Caller(apiKey: apiKey, grants: grants, expires: claims.exp.value)
    }

    /// A key collection holding just this key's HMAC secret, kept until the secret changes.
    private func collection(apiKey: String, secret: String) async -> JWTKeyCollection {
        if let cached = collections.withLockedValue({ $0[apiKey] }), cached.secret == secret { return cached.keys }
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        collections.withLockedValue { $0[apiKey] = (secret, keys) }
        return keys
    }

    /// `data` as unpadded base64url, the decoder's counterpart (page cursors, signed media links).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func base64URL(_ text: Substring) -> Data? {
        guard text.count <= 8192 else { return nil }
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }

    /// What an unknown key's token is checked against: no API key can have this name (keys are
    /// printable), and the secret is this process's alone.
    private static let unknownKeyName = "\u{0}unknown"
    private static let unknownKeySecret = (0..<4).map { _ in UUID().uuidString }.joined()

    static func unauthorized(_ detail: String) -> Problem {
        Problem(status: 401, title: "Unauthorized", detail: detail, type: "unauthorized")
    }

    /// 403 unless the caller holds `grant`.
    public static func require(_ grant: Grant, of caller: Caller) throws(Problem) {
        guard caller.grants.contains(grant) else {
            throw Problem(status: 403, title: "Forbidden", detail: "the token lacks the '\(grant.rawValue)' grant", type: "forbidden")
        }
    }
}
