public import StageMixStorage

/// The bucket prefixes the service may read captures from and write outputs to (`--allow-storage`,
/// repeatable; none by default, so a service given none touches no bucket). A location is within a
/// prefix when the prefix's path segments begin its own: `s3://b/rec` holds `s3://b/rec` and
/// `s3://b/rec/x`, not `s3://b/recordings`; `s3://b` holds the whole bucket.
///
/// A location with an empty, `.` or `..` segment is refused outright rather than interpreted: the key
/// checked is then the key read, whatever a store or a proxy on the way might make of dot segments.
public struct StorageAllowList: Sendable {
    /// The allowed prefixes, without a trailing `/`.
    public let prefixes: [S3Location]

    public init(_ urls: [String]) throws(ServiceSetupError) {
        var prefixes: [S3Location] = []
        for url in urls {
            guard let prefix = Self.location(url) else {
                throw ServiceSetupError("--allow-storage \(url): expected s3://bucket or s3://bucket/prefix, \(Self.shape)")
            }
            prefixes.append(prefix)
        }
        self.prefixes = prefixes
    }

    static let shape = "with a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens and no empty, '.' or '..' segments"

    /// `text` as a location in one spelling (no trailing `/`), or nil when it is not an `s3://` URL
    /// StageMix reads, or has a segment that is empty, `.` or `..`, or a control character.
    public static func location(_ text: String) -> S3Location? {
        guard let parsed = S3Location(text) else { return nil }
        var key = parsed.key
        if key.hasSuffix("/") { key.removeLast() }
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        guard key.isEmpty || segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              key.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else { return nil }
        return S3Location(bucket: parsed.bucket, key: key)
    }

    /// Whether `location` (in ``location(_:)``'s spelling) lies within an allowed prefix.
    public func permits(_ location: S3Location) -> Bool {
        prefixes.contains { prefix in
            prefix.bucket == location.bucket
                && (prefix.key.isEmpty || location.key == prefix.key || location.key.hasPrefix(prefix.key + "/"))
        }
    }

    /// The capture an API request names by URL, as the job will read it, if it lies within an allowed prefix.
    func capture(_ text: String) throws(Problem) -> String {
        guard text.utf8.count <= 1024, let location = Self.location(text) else {
            throw Problem.invalid("capture", "must be a folder relative to a capture root or an s3://bucket/prefix URL \(Self.shape)")
        }
        guard permits(location) else {
            throw Problem.invalid("capture", "\(location) is not within any --allow-storage prefix of the service")
        }
        return location.description
    }
}
