import Foundation
import Testing
@testable import StageMixPublishing
import StageMixTestSupport

/// Two runs into one folder (issue 32, items 1 and 8): of two runs into a new folder one publishes,
/// and the other neither replaces nor deletes what the first published; a run that starts while
/// another live process is writing there is told so before it does any work.
@Suite("output publisher: two runs into one folder")
struct FolderPublisherRaceTests {
    let root: URL

    init() throws {
        root = ScratchDirectory("output-race").url
    }

    func publisher(_ overwrite: Bool = false) -> FolderPublisher {
        FolderPublisher(target: root.appendingPathComponent("out"), overwrite: overwrite)
    }

    func stage(_ publisher: FolderPublisher, _ text: String) throws -> URL {
        let staging = try publisher.makeStaging()
        try text.write(to: staging.appendingPathComponent("a.txt"), atomically: false, encoding: .utf8)
        return staging
    }

    func read() -> String? {
        try? String(contentsOf: root.appendingPathComponent("out/a.txt"), encoding: .utf8)
    }

    @Test func aRunThatFoundNoOutputNeverReplacesOnePublishedMeanwhile() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let first = publisher(), second = publisher()
        // Both look while the folder is new, both compose, the first publishes first.
        try first.check()
        try second.check()
        let a = try stage(first, "first"), b = try stage(second, "second")
        try first.publish(a)
        let refusal = try #require(throws: OutputRefusal.self) { try second.publish(b) }
        #expect(refusal.reason == .publishedMeanwhile)
        #expect(refusal.message.contains("another StageMix run published an output there"), "\(refusal)")
        second.discard(b)
        #expect(read() == "first", "the first run's output is whole and in place")
        #expect(FolderPublisher.isStageMixOutput(root.appendingPathComponent("out")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["out"])
    }

    @Test func withOverwriteTheLaterRunReplacesItWhole() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let first = publisher(), second = publisher(true)
        try first.check()
        try second.check()
        let a = try stage(first, "first"), b = try stage(second, "second")
        try first.publish(a)
        try second.publish(b)
        #expect(read() == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["out"])
    }

    @Test func aLiveRunWritingThereIsSaidBeforeAnyWork() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        // Another live process's staging folder for this target: pid 1, as it really started.
        let init1 = ProcessIdentity(pid: 1, startTicks: try #require(ProcessIdentity.startTicks(of: 1)))
        let busy = root.appendingPathComponent(StagingName(target: "out", owner: init1).name)
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        let refusal = try #require(throws: OutputRefusal.self) { try publisher().check() }
        #expect(refusal.reason == .busy && refusal.isTemporary)
        #expect(refusal.message.contains("another StageMix run (pid 1) is writing"), "\(refusal)")
        #expect(FileManager.default.fileExists(atPath: busy.path), "the other run's folder is left alone")
        // --overwrite may replace whatever that run publishes, so it goes ahead.
        try publisher(true).check()

        // A dead process's staging folder is no run: it is swept, and the folder is free.
        try FileManager.default.removeItem(at: busy)
        let dead = root.appendingPathComponent(StagingName(target: "out", owner: ProcessIdentity(pid: Int32.max, startTicks: 1)).name)
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        try publisher().check()
    }

    @Test func whatAnExchangeTookOutIsDeletedOnlyIfItIsAStageMixOutput() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        // What publish checks after exchanging, before deleting what it swapped out: a folder that became
        // someone else's between the last look and the exchange is put back, not deleted.
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "theirs".write(to: out.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
        #expect(!FolderPublisher.isStageMixOutput(out))
        try OutputMarker(entries: ["a.txt"], job: nil).write(in: out)
        #expect(!FolderPublisher.isStageMixOutput(out), "a marker does not vouch for files it does not list")
    }
}
