/// An access key pair (and a session token for temporary credentials). The secret never appears in
/// a description, so printing one, logging it or putting it in an error cannot leak it.
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var accessKeyId: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String {
        "access key \(accessKeyId.prefix(4))… (secret not shown\(sessionToken == nil ? "" : ", with a session token"))"
    }

    public var debugDescription: String { description }
}
