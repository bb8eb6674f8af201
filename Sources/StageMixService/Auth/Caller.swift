public import Foundation

/// Who made a request, once their credentials checked out: the API key, what it may do, and until when
/// (a token's `exp`; nil for an API key and its secret, which do not expire).
public struct Caller: Sendable {
    public var apiKey: String
    public var grants: Set<Grant>
    public var expires: Date?

    public init(apiKey: String, grants: Set<Grant>, expires: Date? = nil) {
        self.apiKey = apiKey
        self.grants = grants
        self.expires = expires
    }
}
