import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether a manifest's media path stays inside the capture directory: relative, never
/// climbing above the directory, and, when the file exists, not a symlink that resolves outside it.
struct MediaPathCheck {
    let directory: URL

    struct Violation { var expected: String; var found: String }

    func violation(_ path: String) -> Violation? {
        if path.hasPrefix("/") {
            return Violation(expected: "a path relative to the capture directory", found: "the absolute path \"\(path)\"")
        }
        var depth = 0
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": depth -= 1
            default: depth += 1
            }
            if depth < 0 {
                return Violation(expected: "a path inside the capture directory", found: "\"\(path)\", which climbs out of it")
            }
        }
        if depth == 0 {
            return Violation(expected: "a path to a file inside the capture directory", found: "\"\(path)\", the directory itself")
        }
        // A missing file is reported by CaptureReader.missingMedia; only an existing one can be resolved.
        // An object store has keys, not links: nothing to resolve there.
        guard directory.isFileURL, let resolvedRoot = Self.realPath(directory.path),
              let resolved = Self.realPath(directory.appendingPathComponent(path).path) else { return nil }
        if !resolved.hasPrefix(resolvedRoot == "/" ? "/" : resolvedRoot + "/") {
            return Violation(expected: "a file inside the capture directory", found: "\"\(path)\", which resolves to \(resolved) through a symbolic link")
        }
        return nil
    }

    /// The canonical path with every symbolic link resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
