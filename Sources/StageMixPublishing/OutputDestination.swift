public import Foundation

/// Where a composition's output is published, named once as a URL-like value: in `JobSpec`, the
/// queue's composition record and the API's answers. A local folder is written as its absolute path
/// (a `file://` URL is read as one too), so stored jobs and answers read as they always have; other
/// kinds (object storage, `s3://bucket/prefix`) are further cases here, each with its own publisher.
public enum OutputDestination: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A folder on this machine, absolute and standardised.
    case folder(URL)

    /// Reads a destination as the user wrote it: a path (relative to `directory`), or a URL.
    /// A URL of a kind StageMix cannot write yet is refused with the reason.
    public init(parsing text: String, relativeTo directory: String = FileManager.default.currentDirectoryPath) throws(OutputRefusal) {
        if let scheme = Self.scheme(of: text) {
            guard scheme == "file", let url = URL(string: text), url.isFileURL else {
                throw OutputRefusal(.unsupportedDestination,
                                    "\(text): StageMix writes outputs to local folders; \(scheme):// destinations are not supported")
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

    /// The local folder the output is published to.
    public var folder: URL {
        switch self {
        case .folder(let url): url
        }
    }

    /// The destination as it is stored and shown: a folder's absolute path.
    public var description: String {
        switch self {
        case .folder(let url): url.path
        }
    }

    /// The publisher that stages an output and puts it in place here. `job` is the queue job
    /// publishing, if any (it may replace its own earlier output); `inputs` are folders the output
    /// must keep clear of (the capture).
    public func publisher(overwrite: Bool, job: String? = nil, protecting inputs: [URL] = []) -> any OutputPublishing {
        switch self {
        case .folder(let url): FolderPublisher(target: url, overwrite: overwrite, job: job, protecting: inputs)
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
