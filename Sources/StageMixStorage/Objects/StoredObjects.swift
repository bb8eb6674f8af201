public import Foundation

/// A prefix of a bucket that StageMix reads from: the client to read with, each object's size (asked
/// with a HEAD request the first time the object is opened, so an object nobody opens is never asked
/// about), and the first request that failed for good (after its retries), so that a run reading
/// media from it stops with that error instead of treating the media as damaged.
///
/// Shared by reference between the values that name its objects; compared by identity.
public final class StoredObjects: @unchecked Sendable, Hashable {
    public let client: S3Client
    public let prefix: S3Location
    private let lock = NSLock()
    private var firstFailure: S3Error?
    /// Key (relative to `prefix`) to size in bytes, or nil for an object found missing.
    private var sizes: [String: Int?] = [:]

    public init(client: S3Client, prefix: S3Location) {
        self.client = client
        self.prefix = prefix
    }

    /// The object holding `relativePath`.
    public func location(of relativePath: String) -> S3Location { prefix.appending(relativePath) }

    /// The size of `relativePath`, or nil when there is no such object (a lost media file, reported as
    /// such). Any other answer (access denied, the store out of reach) is recorded and thrown.
    public func size(of relativePath: String) throws(S3Error) -> Int? {
        if let known = lock.withLock({ sizes[relativePath] }) { return known }
        do {
            let size = try client.head(location(of: relativePath)).wait()?.size
            lock.withLock { sizes[relativePath] = .some(size) }
            return size
        } catch {
            let failure = S3Error(error, location: location(of: relativePath).description)
            recordFailure(failure)
            throw failure
        }
    }

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
