import Foundation
import Testing
@testable import StageMixPublishing
import StageMixTestSupport

/// The publisher as compose and the worker use it, on real folders: what it refuses, what it
/// replaces, and that it never leaves or touches anything beside the output.
@Suite("output publisher")
struct FolderPublisherTests {
    let root: URL

    init() throws {
        root = ScratchDirectory("output").url
    }

    func write(_ text: String, _ path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func read(_ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func names(_ path: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)) ?? []).sorted()
    }

    /// Stages `files` and publishes them to `out` through `publisher`.
    func compose(_ publisher: FolderPublisher, files: [String: String]) throws {
        try publisher.check()
        publisher.sweepLeftovers()
        let staging = try publisher.makeStaging()
        for (name, text) in files { try text.write(to: staging.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        try publisher.publish(staging)
    }

    func publisher(_ out: String, overwrite: Bool = false, job: String? = nil) -> FolderPublisher {
        FolderPublisher(target: root.appendingPathComponent(out), overwrite: overwrite, job: job,
                        protecting: [root.appendingPathComponent("capture")])
    }

    @Test func publishesANewOutputWithItsMarkerAndNothingBesideIt() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try compose(publisher("deep/out"), files: ["a.txt": "new"])
        #expect(read("deep/out/a.txt") == "new")
        let marker = try #require(OutputMarker.read(in: root.appendingPathComponent("deep/out")))
        #expect(marker.entries == ["a.txt"])
        #expect(names("deep") == ["out"])
    }

    @Test func refusesTheCaptureAFolderInsideItAndAFolderAroundIt() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("{}", "capture/session.json")
        // A symbolic link is one more spelling of the capture.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("alias"), withDestinationURL: root.appendingPathComponent("capture"))
        for out in ["capture", "capture/", "capture/out", "capture/media/../out", "alias", "alias/out", ".", "", "../" + root.lastPathComponent] {
            #expect(throws: OutputRefusal.self, "--out \(out)") { try publisher(out, overwrite: true).check() }
        }
        let refusal = try #require(throws: OutputRefusal.self) { try publisher("capture/out").check() }
        #expect(refusal.reason == .overlapsCapture)
        #expect(refusal.message.contains("is inside the capture"))
        #expect(read("capture/session.json") == "{}")
        #expect(names("capture") == ["session.json"])
    }

    @Test func refusesAFileASymbolicLinkAndAForeignFolderEvenWithOverwrite() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("mine", "file.txt")
        try write("mine", "foreign/notes.txt")
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: root.appendingPathComponent("foreign"))
        for (out, reason) in [("file.txt", OutputRefusal.Reason.notAFolder), ("link", .notAFolder), ("foreign", .foreignFolder)] {
            let refusal = try #require(throws: OutputRefusal.self) { try compose(publisher(out, overwrite: true), files: ["a": "x"]) }
            #expect(refusal.reason == reason)
            #expect(refusal.message.contains(root.appendingPathComponent(out).path))
        }
        #expect(read("file.txt") == "mine")
        #expect(read("foreign/notes.txt") == "mine")
        #expect(names() == ["file.txt", "foreign", "link"], "no staging folder left behind")
    }

    @Test func replacesAnEarlierOutputOnlyWithOverwriteOrForTheSameJob() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try compose(publisher("out", job: "job-1"), files: ["a.txt": "first", "b.txt": "first"])
        let refusal = try #require(throws: OutputRefusal.self) { try compose(publisher("out"), files: ["a.txt": "second"]) }
        #expect(refusal.reason == .earlierOutput)
        #expect(refusal.message.contains("--overwrite"))
        #expect(read("out/a.txt") == "first")

        try compose(publisher("out", job: "job-1"), files: ["a.txt": "retry"])
        #expect(read("out/a.txt") == "retry")
        try compose(publisher("out", overwrite: true), files: ["a.txt": "second"])
        #expect(read("out/a.txt") == "second")
        #expect(read("out/b.txt") == nil, "the earlier output is replaced whole, not merged")
        #expect(names() == ["out"], "the earlier output is gone, not left aside")
    }

    @Test func anEarlierOutputWithAFileAddedByHandIsNotReplaced() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try compose(publisher("out"), files: ["a.txt": "first"])
        try write("keep me", "out/notes.txt")
        let refusal = try #require(throws: OutputRefusal.self) { try compose(publisher("out", overwrite: true), files: ["a.txt": "x"]) }
        #expect(refusal.reason == .foreignFolder)
        #expect(refusal.message.contains("notes.txt"))
        #expect(read("out/notes.txt") == "keep me")
    }

    @Test func anEmptyFolderIsUsed() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("out"), withIntermediateDirectories: false)
        try compose(publisher("out"), files: ["a.txt": "new"])
        #expect(read("out/a.txt") == "new")
        #expect(names() == ["out"])
    }

    @Test func sweepsWhatDeadProcessesLeftAndNothingALiveOneOwns() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let me = ProcessIdentity.current
        // The same pid started at another time: a pid reused after a crash is not the owner.
        let reused = ProcessIdentity(pid: me.pid, startTicks: me.startTicks + 1)
        let gone = ProcessIdentity(pid: Int32.max, startTicks: 1)
        let live = StagingName(target: "out", owner: me).name
        let dead = StagingName(target: "out", owner: reused).name
        let other = StagingName(target: "other", owner: gone).name
        for name in [live, dead, other] { try write("partial", "\(name)/seg.ts") }
        // A worker's child writes to `--out` the worker's staging name: its own staging is that name's.
        let deadChild = StagingName(target: StagingName(target: "out", owner: me).name, owner: gone).name
        #expect(deadChild.hasPrefix("..out.stagemix-"))
        try write("partial", "\(deadChild)/seg.ts")
        publisher("out").sweepLeftovers()
        #expect(names() == [other, live].sorted(), "a dead owner's staging (also a dead child's inside a live worker's name) is swept; a live one's and another target's are not")
    }

    @Test func aCutOffFallbackPublishIsUndoneByTheSweep() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        // What the two-rename fallback leaves if it dies between its renames: the earlier output aside, no target.
        let aside = StagingName(target: "out", owner: ProcessIdentity(pid: Int32.max, startTicks: 1), isOldOutput: true).name
        try write("first", "\(aside)/a.txt")
        publisher("out").sweepLeftovers()
        #expect(read("out/a.txt") == "first")
        #expect(names() == ["out"])
    }

    @Test func stagingNamesParseBackIncludingAWorkersChild() throws {
        let worker = StagingName(target: "my.out", owner: ProcessIdentity(pid: 12, startTicks: 34), token: 56)
        #expect(worker.name == ".my.out.stagemix-12-34-56")
        #expect(StagingName(parsing: worker.name) == worker)
        let child = try #require(StagingName(parsing: "." + worker.name + ".stagemix-78-9-10"))
        #expect(child.owner == ProcessIdentity(pid: 78, startTicks: 9))
        #expect(child.belongs(to: "my.out") && !child.belongs(to: "my"))
        #expect(StagingName(parsing: ".out.stagemix-1-2-3.old")?.isOldOutput == true)
        for name in ["out", ".out", ".out.stagemix-", ".out.stagemix-0-1-2", ".out.stagemix-a-1-2", ".stagemix-1-2-3", ".out.stagemix-1-2-3-4"] {
            #expect(StagingName(parsing: name) == nil, "\(name)")
        }
    }
}
