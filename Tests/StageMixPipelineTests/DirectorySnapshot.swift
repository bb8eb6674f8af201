import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Everything observable about a directory tree without following links or opening special files:
/// each entry's type, mode, size, modification time, a symbolic link's target and a regular file's
/// bytes (its size and time only, past `contentLimit`). Two snapshots differ when anything was
/// written, added, removed or replaced.
struct DirectorySnapshot: Equatable {
    struct Entry: Equatable {
        var mode: UInt32
        var size: Int
        var modified: timespec
        var linkTarget: String?
        var contents: Data?

        static func == (a: Entry, b: Entry) -> Bool {
            a.mode == b.mode && a.size == b.size && a.linkTarget == b.linkTarget && a.contents == b.contents
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    static let contentLimit = 16 << 20

    var entries: [String: Entry] = [:]

    init(of root: URL) {
        walk(root.path, relative: "")
    }

    private mutating func walk(_ path: String, relative: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        var entry = Entry(mode: info.st_mode, size: Int(info.st_size), modified: info.st_mtim)
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            entry.linkTarget = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
        case S_IFREG where entry.size <= Self.contentLimit:
            entry.contents = FileManager.default.contents(atPath: path)
        case S_IFDIR:
            for child in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                walk(path + "/" + child, relative: relative.isEmpty ? child : relative + "/" + child)
            }
            entry.modified = timespec()  // listing order and atime aside, a directory is its entries
        default:
            break
        }
        entries[relative] = entry
    }

    /// The paths whose entries differ between two snapshots.
    func changes(since earlier: DirectorySnapshot) -> [String] {
        Set(entries.keys).union(earlier.entries.keys).filter { entries[$0] != earlier.entries[$0] }.sorted()
    }
}
