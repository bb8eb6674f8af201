/// An object as a listing or a HEAD request describes it.
public struct S3Object: Sendable, Hashable {
    public var key: String
    public var size: Int
    /// Without the quotes S3 puts around it.
    public var etag: String

    public init(key: String, size: Int, etag: String) {
        self.key = key
        self.size = size
        self.etag = etag
    }
}
