public import Foundation
import StageMixStorage

/// Writes a command's document (`plan --json`, `probe --json`) to standard output. A failed write is
/// the command's failure, not a trap: a full disk under a redirected output names the file.
public func writeStandardOutput(_ data: Data) throws {
    do {
        try FileHandle.standardOutput.write(contentsOf: data)
    } catch {
        let named = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/1")) ?? "standard output"
        throw NoSpaceLeft(error, path: named) ?? error
    }
}
