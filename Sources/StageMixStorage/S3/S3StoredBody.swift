public import Foundation

/// An object's bytes as read, and the ETag of the version they are.
public struct S3StoredBody: Sendable, Hashable {
    public var data: Data
    /// Without the quotes S3 puts around it.
    public var etag: String

    public init(data: Data, etag: String) {
        self.data = data
        self.etag = etag
    }
}
