import Foundation
import Testing
@testable import StageMixQueue
#if canImport(Glibc)
import Glibc
#endif

/// The local folder of a chunked composition's work in a bucket (`stagemix-chunks-<id>-<worker pid>-<n>`
/// under the temporary directory) outlives a SIGKILLed worker: the next attempt on the machine sweeps it.
struct ChunkWorkSweepTests {
    @Test func aGoneWorkersLocalWorkIsSweptAndALiveOnesIsNot() throws {
        let temporary = FileManager.default.temporaryDirectory
        let id = UUID().uuidString.lowercased()
        let mine = "\(ChunkWork.localPrefix)\(id)-\(getpid())-7"
        let gone = "\(ChunkWork.localPrefix)\(id)-\(Int32.max)-7"
        let other = "stagemix-chunks-notes-\(id)"
        defer { for name in [mine, gone, other] { try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name)) } }
        for name in [mine, gone, other] {
            try FileManager.default.createDirectory(at: temporary.appendingPathComponent(name).appendingPathComponent("run"), withIntermediateDirectories: true)
        }
        ChunkWork.sweepLocalLeftovers()
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path))
        #expect(left.contains(mine), "a live worker's work stays")
        #expect(left.contains(other), "a name without a worker's pid is not a work's")
        #expect(!left.contains(gone), "a gone worker's work is swept")
    }
}
