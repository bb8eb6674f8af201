import Foundation

/// `session.json`'s identity: a recorder replaces it by a rename, so a new version is a new inode
/// (or, written in place, a new size or time).
struct FileStamp: Equatable {
    var inode: UInt64
    var size: Int64
    var modified: Double

    init?(_ url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }
}
