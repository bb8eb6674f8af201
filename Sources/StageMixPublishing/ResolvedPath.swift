import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A path with `.`, `..` and symbolic links resolved as far as it exists, so that two spellings of
/// one folder compare equal even when its last components are not there yet.
struct ResolvedPath: Equatable {
    let path: String

    init(_ url: URL) {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while existing.path != "/", realpath(existing.path, nil) == nil {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var base = "/"
        if let real = realpath(existing.path, nil) {
            base = String(cString: real)
            free(real)
        }
        path = missing.reduce(base) { $0 == "/" ? "/\($1)" : "\($0)/\($1)" }
    }

    /// True if `self` is `other` or lies inside it.
    func isWithin(_ other: ResolvedPath) -> Bool {
        path == other.path || other.path == "/" || path.hasPrefix(other.path + "/")
    }
}
