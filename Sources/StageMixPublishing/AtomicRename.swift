import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Linux's `renameat2`, which swaps two folders or refuses to replace one in a single step.
/// Swift's Glibc module does not export it (it needs `_GNU_SOURCE`), so it is looked up at run time.
enum AtomicRename {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let renameat2: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
    private static let noReplace: UInt32 = 1
    private static let exchange: UInt32 = 2

    enum Outcome {
        case done
        /// The file system or kernel cannot do it: fall back.
        case unsupported
    }

    /// Swaps `a` and `b`, both of which must exist.
    static func exchange(_ a: URL, _ b: URL) throws -> Outcome {
        try call(a, b, flags: exchange)
    }

    /// Renames `from` to `to`, failing with EEXIST rather than replacing anything at `to`.
    static func moveWithoutReplacing(_ from: URL, to: URL) throws -> Outcome {
        try call(from, to, flags: noReplace)
    }

    /// Plain `rename(2)`.
    static func rename(_ from: URL, to: URL) throws {
        guard Glibc.rename(from.path, to.path) == 0 else { throw posixError("rename", from, to) }
    }

    private static func call(_ from: URL, _ to: URL, flags: UInt32) throws -> Outcome {
        guard let renameat2 else { return .unsupported }
        if renameat2(AT_FDCWD, from.path, AT_FDCWD, to.path, flags) == 0 { return .done }
        if errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP { return .unsupported }
        throw posixError(flags == exchange ? "exchange" : "rename", from, to)
    }

    static func posixError(_ what: String, _ from: URL, _ to: URL) -> NSError {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [
            NSLocalizedDescriptionKey: "\(what) \(from.path) -> \(to.path): \(String(cString: strerror(code)))",
        ])
    }
}
