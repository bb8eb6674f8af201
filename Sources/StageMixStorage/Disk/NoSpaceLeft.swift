import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A write that failed because its file system is full (ENOSPC) or its owner's quota is spent (EDQUOT).
/// Neither the input's fault nor StageMix's: the same command succeeds once there is room. Every command
/// stops at the first such write and exits 74 with this message (docs/limits.md, "A full disk").
public struct NoSpaceLeft: Error, Sendable, Hashable, CustomStringConvertible {
    /// The absolute path of the file whose write failed (or of its folder, when the file is not known).
    public let path: String
    /// ENOSPC or EDQUOT.
    public let code: Int32

    public init(path: String, code: Int32 = 28 /* ENOSPC */) {
        self.path = path.hasPrefix("/") ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        self.code = code
    }

    public var description: String {
        "no space left on device\(code == EDQUOT ? " (disk quota exceeded)" : ""): cannot write \(path)"
    }

    /// Whether a POSIX error number means the disk is full.
    public static func means(errno code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// The full disk `error` reports, when it is one: this type itself, or what Foundation throws for a
    /// write to a full disk (`CocoaError.fileWriteOutOfSpace`, a POSIX ENOSPC or EDQUOT, as such or as the
    /// underlying error), naming the path Foundation gives or else `path`.
    public init?(_ error: any Error, path: String? = nil) {
        if let full = error as? NoSpaceLeft { self = full; return }
        if let reporting = error as? any NoSpaceReporting {
            guard let full = reporting.noSpaceLeft else { return nil }
            self = full
            return
        }
        let ns = error as NSError
        var code: Int32?
        if ns.domain == NSPOSIXErrorDomain, Self.means(errno: Int32(ns.code)) { code = Int32(ns.code) }
        if ns.domain == NSCocoaErrorDomain, ns.code == CocoaError.fileWriteOutOfSpace.rawValue { code = ENOSPC }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           Self.means(errno: Int32(underlying.code)) {
            code = Int32(underlying.code)
        }
        guard let code else { return nil }
        let named = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        guard let place = named ?? path else { return nil }
        self.init(path: place, code: code)
    }
}

/// An error of another module's that may be a full disk (a muxer's failed write).
public protocol NoSpaceReporting: Error {
    /// The full disk behind the error, when it is one.
    var noSpaceLeft: NoSpaceLeft? { get }
}
