/// A multipart upload begun and neither completed nor aborted.
public struct S3Upload: Sendable, Hashable {
    public var key: String
    public var uploadId: String

    public init(key: String, uploadId: String) {
        self.key = key
        self.uploadId = uploadId
    }
}
