import Crypto
public import Foundation

extension TokenVerifier {
    /// The caller of a Twilio-shaped route: HTTP Basic with an API key and its secret, as Twilio's
    /// libraries send an API key SID and secret (the secret itself is the credential, so it holds every
    /// grant), or a Bearer token as on every other route.
    public func twilioCaller(authorization: String?, now: Date = Date()) async throws(Problem) -> Caller {
        guard let authorization, authorization.lowercased().hasPrefix("basic ") else {
            guard authorization != nil else {
                throw Self.unauthorized("no Authorization header; send HTTP Basic with an API key and its secret, as Twilio's libraries do")
            }
            return try await caller(authorization: authorization, now: now)
        }
        return try basicCaller(authorization: authorization)
    }

    /// The caller of a route that takes only HTTP Basic with an API key and its secret (Janus's event
    /// handler, which can send nothing else): every grant, as the secret itself is the credential.
    public func basicCaller(authorization: String?) throws(Problem) -> Caller {
        guard let authorization, authorization.lowercased().hasPrefix("basic ") else {
            throw Self.unauthorized("send HTTP Basic with an API key and its secret (Janus: backend_user and backend_pwd)")
        }
        let encoded = authorization.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
        guard encoded.utf8.count <= 1024, let data = Data(base64Encoded: encoded),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else {
            throw Self.unauthorized("the Basic credentials must be base64 of KEY:SECRET")
        }
        let apiKey = String(text[..<colon])
        let given = Data(text[text.index(after: colon)...].utf8)
        // An unknown key costs the same comparison as a known one; digests compare in constant time.
        let expected = keys.secret(for: apiKey).map { Data($0.utf8) }
        let matches = SHA256.hash(data: given) == SHA256.hash(data: expected ?? Self.unknownBasicSecret)
        guard expected != nil, matches else { throw Self.unauthorized("the API key or its secret is wrong") }
        return Caller(apiKey: apiKey, grants: Set(Grant.allCases))
    }

    private static let unknownBasicSecret = Data(UUID().uuidString.utf8)
}
