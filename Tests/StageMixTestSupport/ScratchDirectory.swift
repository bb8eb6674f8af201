public import Foundation

/// A fresh directory under the system's temporary directory, `stagemix-<purpose>-<UUID>`, removed by
/// `remove()`: the one temporary directory of every test target.
public struct ScratchDirectory: Sendable {
    public let url: URL
    public init(_ purpose: String = "capture") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stagemix-\(purpose)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    /// A path inside the directory.
    public func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }
    public func write(_ text: String, to relative: String) {
        let file = file(relative)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: file)
    }
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
