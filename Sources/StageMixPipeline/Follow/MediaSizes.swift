public import Foundation
public import StageMixCapture
import StageMixJSON
#if canImport(Glibc)
import Glibc
#endif

/// The size of every media file a capture in progress has named so far, as last looked at. The
/// contract says media files only grow, so a look tells whether the recorder is still writing (for
/// `--follow-timeout`) and catches a file that shrank, or went, after having had bytes. A file named
/// before it exists, or still empty, is as the contract allows.
public struct MediaSizes: Sendable {
    /// The capture folder the files' paths are relative to.
    public let folder: URL
    /// Relative path to its size at the last look (0 for a file not there yet).
    public private(set) var sizes: [String: Int64] = [:]
    /// The paths in the order they were named, so a problem report lists them as the manifest does.
    private var named: [String] = []

    public init(folder: URL) { self.folder = folder }

    /// Adds files a version of `session.json` names; the ones already known keep their sizes.
    public mutating func name(_ files: some Sequence<String>) {
        for file in files where sizes[file] == nil {
            sizes[file] = 0
            named.append(file)
        }
    }

    /// Looks at every file named (one `stat` each): whether any grew since the last look. A file
    /// smaller than at the last look, or gone after having had bytes, is a broken contract: every
    /// such file is named.
    public mutating func look() throws(CaptureError) -> Bool {
        var grew = false
        var problems: [JSONProblem] = []
        for file in named {
            let before = sizes[file] ?? 0
            let now = Self.size(folder.appendingPathComponent(file).path)
            if let now, now > before {
                grew = true
                sizes[file] = now
            } else if (now ?? 0) < before {
                problems.append(JSONProblem(file: folder.appendingPathComponent(file).path, path: "",
                                            expected: "at least \(before) bytes, as it had before (a capture in progress's media only grow)",
                                            found: now.map { "\($0) bytes: the file shrank" } ?? "no file: it went after having had bytes"))
            }
        }
        if !problems.isEmpty { throw CaptureError(problems: problems) }
        return grew
    }

    /// A regular file's size (through symbolic links); `nil` for nothing there or something else.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
