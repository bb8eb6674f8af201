public import Foundation

/// A prefix of a bucket that StageMix reads from, as one listing saw it: the client to read with,
/// each object's size, and the first read that failed for good (after its retries), so that a run
/// reading media from it stops with that error instead of treating the media as damaged.
///
/// Shared by reference between the values that name its objects; compared by identity.
public final class StoredObjects: @unchecked Sendable, Hashable {
    public let client: S3Client
    public let prefix: S3Location
    /// Key (relative to `prefix`) to size in bytes.
    public let sizes: [String: Int]
    private let lock = NSLock()
    private var firstFailure: S3Error?

    public init(client: S3Client, prefix: S3Location, sizes: [String: Int]) {
        self.client = client
        self.prefix = prefix
        self.sizes = sizes
    }

    /// The object holding `relativePath`.
    public func location(of relativePath: String) -> S3Location { prefix.appending(relativePath) }

    /// The size of `relativePath`, or nil when the listing had no such object.
    public func size(of relativePath: String) -> Int? { sizes[relativePath] }

    /// Records a read that failed after its retries; the first is kept.
    public func recordFailure(_ error: S3Error) {
        lock.lock()
        defer { lock.unlock() }
        if firstFailure == nil { firstFailure = error }
    }

    /// The first read that failed for good, if any.
    public var failure: S3Error? {
        lock.lock()
        defer { lock.unlock() }
        return firstFailure
    }

    public static func == (a: StoredObjects, b: StoredObjects) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
