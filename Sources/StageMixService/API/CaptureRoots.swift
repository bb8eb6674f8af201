import Foundation

/// The folders captures may be read from. A request names a capture by a path relative to one of
/// them; a path that is absolute, has a `..` component, or leads out of its root through a symbolic
/// link is refused, so the API cannot be used to read anything else on the machine. A service may
/// have none, and read captures only from buckets (``StorageAllowList``).
public struct CaptureRoots: Sendable {
    /// Real paths (symbolic links resolved), in the order given.
    public let roots: [String]

    public init(_ paths: [String]) throws {
        roots = try paths.map { path in
            guard let real = Self.realPath(path) else { throw ServiceSetupError("--capture-root \(path): no such folder") }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ServiceSetupError("--capture-root \(path): not a folder")
            }
            return real
        }
    }

    /// The real path of the capture folder `relative` names, under the first root that has it.
    public func resolve(_ relative: String) throws(Problem) -> String {
        guard !roots.isEmpty else {
            throw Problem.invalid("capture", "must be an s3://bucket/prefix URL: this service reads no capture folders")
        }
        guard !relative.isEmpty, relative.utf8.count <= 1024 else {
            throw Problem.invalid("capture", "must be a path of 1 to 1024 bytes relative to a capture root")
        }
        guard !relative.hasPrefix("/") else {
            throw Problem.invalid("capture", "must be relative to a capture root, not an absolute path")
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains(".."), !relative.contains("\0") else {
            throw Problem.invalid("capture", "must not contain '..'")
        }
        var sawOutside = false
        for root in roots {
            let candidate = URL(fileURLWithPath: root).appendingPathComponent(relative).path
            guard let real = Self.realPath(candidate) else { continue }
            guard real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                sawOutside = true
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw Problem.invalid("capture", "\(relative) is not a capture folder")
            }
            return real
        }
        if sawOutside { throw Problem.invalid("capture", "\(relative) leads out of its capture root (a symbolic link)") }
        throw Problem.invalid("capture", "no capture \(relative) under the capture roots")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
