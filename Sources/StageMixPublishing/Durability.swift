import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes what was written survive a power loss: every file and folder of an output flushed to the
/// disk (`fsync`) before the rename that publishes it, and the folder holding it after, so that an
/// output a command reported as published (exit 0) is on the disk, not only in the page cache.
enum Durability {
    /// Flushes every regular file and folder under `folder`, and `folder` itself.
    static func syncTree(_ folder: URL) throws {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
        while let url = walker?.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isRegularFile == true || values?.isDirectory == true { try sync(url.path) }
        }
        try sync(folder.path)
    }

    /// Flushes one file or folder (a folder's entries: names added, renamed or removed in it).
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, path: path) }
        defer { close(fd) }
        // A file system that cannot flush a folder (EINVAL) has nothing more to offer.
        if fsync(fd) != 0 && errno != EINVAL { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, path: path) }
    }
}

private extension POSIXError {
    init(_ code: POSIXErrorCode, path: String) {
        self.init(code, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot flush \(path) to disk: \(String(cString: strerror(code.rawValue)))"])
    }
}
