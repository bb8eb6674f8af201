public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a recorder replaces a capture in progress's `session.json` (the contract's "A capture in
/// progress"): the new version written beside it under another name, synced, then renamed over it, so
/// a reader finds the old version or the new one whole, never a mix.
public enum ManifestFile {
    public static func replace(in folder: URL, with data: Data) throws {
        let target = folder.appendingPathComponent(CaptureReader.manifestName)
        let temporary = folder.appendingPathComponent(".\(CaptureReader.manifestName).\(getpid()).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path]) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
    }
}
