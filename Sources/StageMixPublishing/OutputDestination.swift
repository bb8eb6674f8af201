public import Foundation
public import StageMixStorage

/// Where a composition's output is published, named once as a URL-like value: in `JobSpec`, the
/// queue's composition record and the API's answers. A local folder is written as its absolute path
/// (a `file://` URL is read as one too), so stored jobs and answers read as they always have; other
/// kinds are further cases here, each with its own publisher.
public enum OutputDestination: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A folder on this machine, absolute and standardised.
    case folder(URL)
    /// A prefix of an S3-compatible bucket, `s3://bucket/prefix` (no trailing `/`).
    case bucket(S3Location)

    /// Reads a destination as the user wrote it: a path (relative to `directory`), or a URL.
    /// A URL of a kind StageMix cannot write yet is refused with the reason.
    public init(parsing text: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) throws(OutputRefusal) {
        if let scheme = Self.scheme(of: text) {
            if scheme == "s3" {
                guard let location = S3Location(text) else {
                    throw OutputRefusal(.unsupportedDestination,
                                        "\(text): expected s3://bucket/prefix, with a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens")
                }
                self = .bucket(S3Location(bucket: location.bucket, key: location.key.hasSuffix("/") ? String(location.key.dropLast()) : location.key))
                return
            }
            guard scheme == "file", let url = URL(string: text), url.isFileURL else {
                throw OutputRefusal(.unsupportedDestination,
                                    "\(text): StageMix writes outputs to local folders and s3:// prefixes; \(scheme):// destinations are not supported")
            }
            self = .folder(Self.canonical(url))
            return
        }
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        self = .folder(Self.canonical(URL(fileURLWithPath: text, relativeTo: base)))
    }

    /// One spelling per folder, so equal destinations compare equal: absolute, standardised, marked
    /// as a directory without asking the file system.
    private static func canonical(_ url: URL) -> URL {
        URL(fileURLWithPath: url.absoluteURL.standardizedFileURL.path, isDirectory: true)
    }

    /// The local folder the output is published to, if it is one.
    public var folder: URL? {
        switch self {
        case .folder(let url): url
        case .bucket: nil
        }
    }

    /// The destination as it is stored and shown: a folder's absolute path, a prefix's `s3://` URL.
    public var description: String {
        switch self {
        case .folder(let url): url.path
        case .bucket(let location): location.description
        }
    }

    /// Where a file of the output is once published: a path, or an `s3://` URL.
    public func location(of relativePath: String) -> String {
        switch self {
        case .folder(let url): url.appendingPathComponent(relativePath).path
        case .bucket(let location): location.appending(relativePath).description
        }
    }

    /// The destination `name` under this one: a folder inside it, or a longer prefix.
    public func appending(_ name: String) -> OutputDestination {
        switch self {
        case .folder(let url): .folder(Self.canonical(url.appendingPathComponent(name)))
        case .bucket(let location): .bucket(location.appending(name))
        }
    }

    /// The publisher that stages an output and puts it in place here. `job` is the queue job
    /// publishing, if any (it may replace its own earlier output); `inputs` are folders the output
    /// must keep clear of (the capture).
    public func publisher(overwrite: Bool, job: String? = nil, protecting inputs: [URL] = []) -> any OutputPublishing {
        switch self {
        case .folder(let url): FolderPublisher(target: url, overwrite: overwrite, job: job, protecting: inputs)
        case .bucket(let location): BucketPublisher(prefix: location, overwrite: overwrite, job: job, protecting: inputs)
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try OutputDestination(parsing: text, relativeTo: "/")
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `s3` in `s3://bucket/key`; nil for a path (`C:` style drive letters do not arise on Linux).
    private static func scheme(of text: String) -> String? {
        guard let colon = text.range(of: "://") else { return nil }
        let scheme = text[..<colon.lowerBound]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return scheme.lowercased()
    }
}
