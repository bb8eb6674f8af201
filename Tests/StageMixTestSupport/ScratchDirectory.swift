import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct ScratchDirectory {
    public let url: URL
    public init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stagemix-capture-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func write(_ text: String, to relative: String) {
        let file = url.appendingPathComponent(relative)
        try! FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: file)
    }
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
