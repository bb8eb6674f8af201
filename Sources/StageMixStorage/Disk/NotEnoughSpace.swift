import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A run refused before it began because its output's file system has clearly less room than the run
/// would write (exit 73; `--no-space-check` skips the check). Says what was needed, what is free, where.
public struct NotEnoughSpace: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder whose file system was measured, absolute.
    public let folder: String
    public let neededBytes: Int64
    public let freeBytes: Int64
    /// What needs the room, for the message ("the output", "the output and its chunks").
    public let what: String

    public init(folder: String, neededBytes: Int64, freeBytes: Int64, what: String) {
        self.folder = folder
        self.neededBytes = neededBytes
        self.freeBytes = freeBytes
        self.what = what
    }

    public var description: String {
        "not enough space on device for \(what): about \(Self.megabytes(neededBytes)) needed, \(Self.megabytes(freeBytes)) free in \(folder) (--no-space-check composes anyway)"
    }

    static func megabytes(_ bytes: Int64) -> String {
        bytes < 10_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : "\((bytes + 500_000) / 1_000_000) MB"
    }

    /// The bytes an unprivileged writer may still write on the file system holding `path`, or that of
    /// its nearest existing folder (an output folder not made yet); nil when none can be measured.
    public static func freeBytes(at path: String) -> (folder: String, bytes: Int64)? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        while true {
            var info = statvfs()
            if statvfs(url.path, &info) == 0 {
                let free = Int64(clamping: UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize)).partialValue)
                return (url.path, free)
            }
            guard errno == ENOENT, url.path != "/" else { return nil }
            url.deleteLastPathComponent()
        }
    }
}
