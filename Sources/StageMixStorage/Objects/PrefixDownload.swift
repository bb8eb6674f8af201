public import Foundation

/// A bucket prefix brought onto this machine as a folder (`stagemix import PLATFORM s3://...`: a
/// platform's recording where the platform uploaded it). Every object under the prefix is written at
/// its key's path below the prefix, read in ranged GETs of a few MiB so no object is ever held in
/// memory whole. A key that would leave the folder (`..`, an empty part, a leading `/`) is skipped and
/// named, never written; so is a "folder" marker (a key ending in `/`). A listing over `maxObjects` is
/// an error (the client's `ListingTooLong`), never a silently partial folder.
public struct PrefixDownload: Sendable {
    public let client: S3Client
    public let prefix: S3Location
    public var maxObjects: Int

    /// Bytes asked for per GET.
    static let chunkBytes = 8 << 20

    public init(client: S3Client, prefix: S3Location, maxObjects: Int = 100_000) {
        self.client = client
        self.prefix = prefix
        self.maxObjects = maxObjects
    }

    /// What was brought over.
    public struct Result: Sendable {
        public var files = 0
        public var bytes = 0
        /// Keys not written, each with why.
        public var skipped: [String] = []
    }

    /// Writes every object under the prefix into `folder` (which must exist).
    public func download(into folder: URL) throws -> Result {
        let base = prefix.appending("")
        var result = Result()
        // Listed by the prefix without its final `/` (a request every S3 implementation signs alike),
        // then kept to the objects below it: `rec/1` also lists `rec/10/...`.
        for object in try client.list(prefix, limit: maxObjects).wait() where object.key.hasPrefix(base.key) {
            let relative = String(object.key.dropFirst(base.key.count))
            guard let parts = Self.safeParts(relative) else {
                if !relative.hasSuffix("/") { result.skipped.append("s3://\(prefix.bucket)/\(object.key): a key that would leave the folder; not read") }
                continue
            }
            var target = folder
            for part in parts { target.appendPathComponent(part) }
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(S3Location(bucket: prefix.bucket, key: object.key), size: object.size, to: target)
            result.files += 1
            result.bytes += object.size
        }
        return result
    }

    /// The path's parts when every one is a plain name.
    static func safeParts(_ relative: String) -> [String]? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") }) else { return nil }
        return parts
    }

    private func write(_ location: S3Location, size: Int, to target: URL) throws {
        guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
        let handle = try FileHandle(forWritingTo: target)
        defer { try? handle.close() }
        var offset = 0
        while offset < size {
            let end = min(size, offset + Self.chunkBytes) - 1
            let data = try client.get(location, range: offset...end, maxBytes: Self.chunkBytes).wait()
            guard !data.isEmpty else {
                throw S3Error(location: location.description, status: 0, code: "ShortRead",
                              message: "the object ended at byte \(offset) of the \(size) its listing said")
            }
            try handle.write(contentsOf: data)
            offset += data.count
        }
    }
}
