public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A single file StageMix writes (a preview PNG): written beside the target under a staging name,
/// then renamed into place, so a reader never sees half of it. An existing path is replaced only
/// when asked, and only if it is a regular file.
public struct OutputFile: Sendable {
    public let target: URL
    public let overwrite: Bool

    public init(target: URL, overwrite: Bool = false) {
        self.target = target.standardizedFileURL
        self.overwrite = overwrite
    }

    /// Throws ``OutputRefusal`` if the target may not be written.
    public func check() throws {
        var info = stat()
        guard lstat(target.path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw OutputRefusal(.notAFolder, "\(target.path) exists and is not a regular file; refusing to replace it")
        }
        if !overwrite { throw OutputRefusal(.earlierOutput, "\(target.path) exists; pass --overwrite to replace it") }
    }

    /// Checks, lets `write` fill a staging path beside the target, and renames it into place.
    public func write(_ write: (URL) throws -> Void) throws {
        try check()
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(StagingName(target: target.lastPathComponent).name)
        StagingRegistry.shared.add(staging)
        defer {
            try? FileManager.default.removeItem(at: staging)
            StagingRegistry.shared.remove(staging)
        }
        try write(staging)
        if overwrite {
            try AtomicRename.rename(staging, to: target)
        } else if try AtomicRename.moveWithoutReplacing(staging, to: target) == .unsupported {
            try AtomicRename.rename(staging, to: target)
        }
    }
}
