import Foundation

/// Output that appears whole or not at all: everything is written into a temporary directory beside
/// the target, then renamed into place. A failure removes the temporary directory and leaves any
/// earlier output untouched.
public struct OutputDirectory: Sendable {
    public let target: URL
    /// Where the output is written until it is published.
    public let staging: URL

    public init(target: URL) throws {
        self.target = target.standardizedFileURL
        let parent = self.target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        staging = parent.appendingPathComponent(".\(self.target.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
    }

    /// Moves the staged output into place, replacing what was there.
    public func publish() throws {
        let fm = FileManager.default
        var old: URL?
        if fm.fileExists(atPath: target.path) {
            let aside = staging.deletingLastPathComponent()
                .appendingPathComponent(".\(target.lastPathComponent).old-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try fm.moveItem(at: target, to: aside)
            old = aside
        }
        do {
            try fm.moveItem(at: staging, to: target)
        } catch {
            if let old { try? fm.moveItem(at: old, to: target) }
            throw error
        }
        if let old { try? fm.removeItem(at: old) }
    }

    /// Removes the staged output after a failure.
    public func discard() {
        try? FileManager.default.removeItem(at: staging)
    }
}
