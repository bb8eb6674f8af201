import Foundation
import Testing
import StageMixPublishing
import StageMixStorage

/// An output in a bucket is staged in a local folder under the temporary directory: what a killed
/// worker (or the compose child that died with it) left there is swept by the next run, as the
/// folder beside a local output is (the chaos run found them piling up: scripts/chaos).
struct BucketStagingSweepTests {
    @Test func deadRunsLocalStagingIsSweptAndALiveOnesIsNot() throws {
        let temporary = FileManager.default.temporaryDirectory
        let me = ProcessIdentity.current
        let gone = ProcessIdentity(pid: Int32.max, startTicks: UInt64.random(in: 1...1_000_000))
        let live = StagingName(target: "upload", owner: me).name
        let dead = StagingName(target: "upload", owner: gone).name
        // A worker's compose child stages inside the worker's name: dead child, live worker.
        let deadChild = StagingName(target: StagingName(target: "upload", owner: me).name, owner: gone).name
        let foreign = StagingName(target: "photos", owner: gone).name
        let names = [live, dead, deadChild, foreign]
        defer { for name in names { try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name)) } }
        for name in names {
            try FileManager.default.createDirectory(at: temporary.appendingPathComponent(name).appendingPathComponent("hls"), withIntermediateDirectories: true)
        }
        BucketPublisher(prefix: S3Location(bucket: "outputs", key: "show")).sweepLeftovers()
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path))
        #expect(left.contains(live) && left.contains(foreign), "a live run's staging, and what is not StageMix's upload staging, stay")
        #expect(!left.contains(dead) && !left.contains(deadChild), "a dead run's staging goes, a dead child's inside a live worker's name too")
    }
}
