public import Foundation

/// Where one media file of a capture is: a file on this machine, or an object in a bucket read by
/// ranged GETs. Messages name it by ``description``: a path or an `s3://` URL, never a credential.
public enum MediaLocation: Sendable, Hashable, CustomStringConvertible {
    case file(URL)
    /// `relativePath` under the prefix of `objects`.
    case object(relativePath: String, in: StoredObjects)

    public var description: String {
        switch self {
        case .file(let url): url.path
        case .object(let path, let objects): objects.location(of: path).description
        }
    }
}
