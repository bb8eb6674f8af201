public import Foundation
public import JWTKit

/// The claims of an API token, as LiveKit's: `iss` is the API key whose secret signed it (HS256),
/// `exp` is required, `nbf` is honoured, and `grants` names what the bearer may do.
public struct AccessClaims: JWTPayload {
    public var iss: IssuerClaim
    public var exp: ExpirationClaim
    public var nbf: NotBeforeClaim?
    public var iat: IssuedAtClaim?
    public var grants: [String]

    public init(apiKey: String, expires: Date, notBefore: Date? = nil, issuedAt: Date? = nil, grants: [Grant]) {
        iss = IssuerClaim(value: apiKey)
        exp = ExpirationClaim(value: expires)
        nbf = notBefore.map { NotBeforeClaim(value: $0) }
        iat = issuedAt.map { IssuedAtClaim(value: $0) }
        self.grants = grants.map(\.rawValue)
    }

    /// Times are checked by ``TokenVerifier``, which knows the clock and the leeway.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

