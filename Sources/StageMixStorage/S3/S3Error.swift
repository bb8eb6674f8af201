/// An S3 request that failed: the location, the HTTP status and S3's own error code
/// (`NoSuchKey`, `SignatureDoesNotMatch`, `AccessDenied`...). It names the URL and never a credential.
public struct S3Error: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: String
    public var status: Int
    public var code: String
    public var message: String

    public init(location: String, status: Int, code: String, message: String) {
        self.location = location
        self.status = status
        self.code = code
        self.message = message
    }

    /// Worth trying again: the store is busy or failing, not refusing (5xx, `SlowDown`).
    public var isTransient: Bool { status >= 500 || code == "SlowDown" || code == "RequestTimeout" }

    public var description: String {
        "\(location): \(code) (HTTP \(status))" + (message.isEmpty ? "" : ": \(message)")
    }
}
