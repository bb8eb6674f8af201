public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file system of its own for a test, small enough to fill: a tmpfs of `bytes`, or an ext4 image on a
/// loop device (ext4 reserves and allocates as a disk does, delayed allocation included), mounted on a
/// new folder and unmounted by `unmount()`. Mounting needs root, as CI runs; elsewhere the tests that
/// use one are skipped (`canMount`).
public final class SmallFileSystem {
    public enum Kind: String, Sendable { case tmpfs, ext4 }

    public let root: URL
    public let kind: Kind
    private let image: URL?

    public static var canMount: Bool { geteuid() == 0 }

    public init(bytes: Int, kind: Kind = .tmpfs) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-small-fs-\(UUID().uuidString)")
        root = base.appendingPathComponent("mnt")
        self.kind = kind
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        switch kind {
        case .tmpfs:
            image = nil
            try Self.sh("mount -t tmpfs -o size=\(bytes) tmpfs '\(root.path)'")
        case .ext4:
            let file = base.appendingPathComponent("disk.img")
            image = file
            // No reserved blocks, no journal: what is free is what a writer may use.
            try Self.sh("truncate -s \(bytes) '\(file.path)' && mkfs.ext4 -q -m 0 -O ^has_journal '\(file.path)' && mount -o loop '\(file.path)' '\(root.path)'")
        }
        try? FileManager.default.removeItem(at: root.appendingPathComponent("lost+found"))
    }

    /// Bytes an unprivileged writer may still write here.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(root.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Leaves about `bytes` free by writing a file of the rest (a file StageMix did not write, which it
    /// must leave as it is); returns that file.
    @discardableResult
    public func fill(leaving bytes: Int, name: String = "filler.bin") throws -> URL {
        let url = root.appendingPathComponent(name)
        let block = 4096
        let fill = max(0, (freeBytes - bytes) / block)
        try Self.sh("dd if=/dev/zero of='\(url.path)' bs=\(block) count=\(fill) status=none conv=fsync")
        return url
    }

    /// What is on the file system now: every path under the root, with its size.
    public func listing() -> [String: Int] {
        var files: [String: Int] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey])
        while let url = walker?.nextObject() as? URL {
            files[String(url.path.dropFirst(root.path.count))] = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? -1
        }
        return files
    }

    public func unmount() {
        _ = try? Self.sh("umount '\(root.path)'")
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    @discardableResult
    public static func sh(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(command): \(said)"])
        }
        return said
    }
}
