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

    /// Worth trying again: the store is busy, failing or out of reach, not refusing (5xx but 501, 429,
    /// `SlowDown`, a connection reset, refused or timed out), or a body was changed on the way
    /// (`BadDigest`: sent again, it arrives whole). Still so after the retries, it is a temporary
    /// failure (exit 75), which a queue tries again later.
    public var isTransient: Bool {
        if status == 501 { return false }  // NotImplemented: the store does not do this, however often asked
        return status >= 500 || status == 429 || ["SlowDown", "RequestTimeout", "Unreachable", "BadDigest", "XAmzContentSHA256Mismatch",
                                                  "IncompleteBody", "TooManyRequests", "ConditionalRequestConflict"].contains(code)
    }

    /// A conditional write found its condition false (HTTP 412): another writer got there first.
    public var isPreconditionFailed: Bool { status == 412 || code == "PreconditionFailed" }

    /// Any failure of a request as an ``S3Error``: S3's own as it is, an answer larger than expected as
    /// `TooLarge`, and the connection's (reset, refused, timed out) as `Unreachable`, which is transient,
    /// naming the `endpoint` it was going to when given.
    public init(_ error: any Error, location: String, endpoint: String? = nil) {
        if let error = error as? S3Error {
            self = error
        } else if let error = error as? S3ResponseCollector.BodyTooLarge {
            self.init(location: location, status: 0, code: "TooLarge", message: error.description)
        } else {
            self.init(location: location, status: 0, code: "Unreachable", message: ConnectionFailure.describe(error, endpoint: endpoint))
        }
    }

    public var description: String {
        // No answer has no HTTP status: "(HTTP 0)" would say nothing.
        "\(location): \(code)" + (status == 0 ? "" : " (HTTP \(status))") + (message.isEmpty ? "" : ": \(message)")
    }
}
