import Foundation
import Testing
import StageMixSynth
import StageMixTestSupport

/// A full disk at any moment of a command that writes: compose (segments, the MP4, pictures, reports,
/// the page; whole or in chunks) and import stop at the first failed write with exit 74, a line saying
/// "no space left on device" and naming the file in the full file system, remove what they wrote, and
/// leave the capture, any earlier output and every file they did not write as they were. Compose refuses
/// with exit 73, before decoding anything, an output that clearly cannot fit. Each on a file system of
/// its own (``SmallFileSystem``), filled so that the failure lands in each phase.
@Suite("full disk", .serialized, .enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
struct FullDiskTests {
    typealias CLI = CommandLineTests

    static let fast = ["--preset", "ultrafast", "--resolution", "320x180", "--fps", "10", "--segment-seconds", "1"]

    static func capture(in root: URL, seconds: Int) throws -> URL {
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(seconds * 1000), to: capture)
        return capture
    }

    /// The bytes a whole run writes, measured on the ordinary disk.
    static func outputBytes(of arguments: [String], in root: URL) throws -> Int {
        let out = root.appendingPathComponent("measure-\(UUID().uuidString)")
        let run = try CLI.run(arguments + ["--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        defer { try? FileManager.default.removeItem(at: out) }
        var total = 0
        let walker = FileManager.default.enumerator(at: out, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values.isRegularFile == true { total += values.fileSize ?? 0 }
        }
        #expect(total > 50_000, "a run writes something: \(total) bytes")
        return total
    }

    /// The file named by a full disk's line, which must lie in the full file system.
    static func namedFile(_ stderr: String, under root: URL) -> String? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains("no space left on device") }),
              let range = line.range(of: root.path) else { return nil }
        return String(line[range.lowerBound...])
    }

    @Test func composeRefusesAnOutputThatCannotFitBeforeDecodingAnything() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root, seconds: 4)
        // Media that cannot be read: a run that decoded anything (the speaker layout's pass over the
        // microphones while planning) would say so before the output's first write.
        let media = capture.appendingPathComponent("media")
        for name in try FileManager.default.contentsOfDirectory(atPath: media.path) {
            try Data("not media".utf8).write(to: media.appendingPathComponent(name))
        }
        let disk = try SmallFileSystem(bytes: 2 << 20)
        defer { disk.unmount() }
        let before = disk.listing()
        let out = disk.root.appendingPathComponent("out")
        let refused = try CLI.run(["compose", capture.path, "--out", out.path, "--layout", "speaker", "--video-bitrate", "6M"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("not enough space on device"), "\(refused.stderr)")
        #expect(refused.stderr.contains(disk.root.path), "names the folder: \(refused.stderr)")
        #expect(refused.stderr.contains("MB free"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("media/"), "nothing was read: \(refused.stderr)")
        #expect(disk.listing() == before, "nothing written")

        // Told to, it composes anyway and meets the full disk (or fits).
        let anyway = try CLI.run(["compose", capture.path, "--out", out.path, "--no-space-check"] + Self.fast)
        #expect(anyway.status != 73, "\(anyway.stderr)")
    }

    /// Compose on a disk filled to leave 3 %, 40 % and 97 % of what the run writes: the failure lands in
    /// the first segments, in the middle, and among the last files (the MP4's trailer, the pictures, the
    /// reports, the page). An earlier output at `--out` and a file of someone else's stay as they were.
    @Test(arguments: [SmallFileSystem.Kind.tmpfs, .ext4])
    func composeStopsAt74AndLeavesTheEarlierOutputAsItWas(kind: SmallFileSystem.Kind) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root, seconds: 6)
        let options = ["compose", capture.path, "--no-space-check", "--mp4", "--thumbnails", "2"] + Self.fast
        let needed = try Self.outputBytes(of: options, in: root)
        var named: [String] = []
        for share in [0.03, 0.4, 0.97] {
            let disk = try SmallFileSystem(bytes: needed * 3 + (4 << 20), kind: kind)
            defer { disk.unmount() }
            let out = disk.root.appendingPathComponent("out")
            let earlier = try CLI.run(["compose", capture.path, "--out", out.path, "--no-space-check"] + Self.fast)
            try #require(earlier.status == 0, "\(earlier.stderr)")
            try disk.fill(leaving: Int(Double(needed) * share))
            let before = disk.listing()
            let full = try CLI.run(options + ["--out", out.path, "--overwrite"])
            #expect(full.status == 74, "\(kind) \(share) of \(needed) bytes: \(full.stderr)")
            let file = Self.namedFile(full.stderr, under: disk.root)
            #expect(file != nil, "\(kind) \(share): a line says no space left and names a file in \(disk.root.path): \(full.stderr)")
            named.append(file ?? "")
            #expect(disk.listing() == before, "\(kind) \(share): the earlier output and the filler as they were, no staging left")
        }
        // The failures landed in different files: early segments, later ones, the last files.
        #expect(Set(named.map { URL(fileURLWithPath: $0).lastPathComponent }).count == 3, "\(named)")
    }

    /// A chunked run: the chunks' children meet the full disk (or the join does); the run exits 74 with
    /// their words, no child outlives it, and nothing is left.
    @Test func chunkedComposeStopsAt74WithNoChildLeft() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root, seconds: 6)
        let options = ["compose", capture.path, "--no-space-check", "--chunk-seconds", "2"] + Self.fast
        let needed = try Self.outputBytes(of: options, in: root)
        for share in [0.05, 0.6] {
            let disk = try SmallFileSystem(bytes: needed * 2 + (4 << 20))
            defer { disk.unmount() }
            try disk.fill(leaving: Int(Double(needed) * share))
            let before = disk.listing()
            let full = try CLI.run(options + ["--out", disk.root.appendingPathComponent("out").path])
            #expect(full.status == 74, "\(share) of \(needed) bytes: \(full.stderr)")
            #expect(Self.namedFile(full.stderr, under: disk.root) != nil, "\(share): \(full.stderr)")
            #expect(!full.stderr.contains("signal"), "no chunk crashed: \(full.stderr)")
            #expect(Self.processes(naming: disk.root.path).isEmpty, "no child outlived compose")
            #expect(disk.listing() == before, "\(share): nothing left")
        }
    }

    /// `compose --follow` while the session is recorded: a chunk or the join meets the full disk; the run
    /// exits 74 without waiting for the session's end, and neither its work nor its staging is left.
    @Test func followedComposeStopsAt74WhileTheSessionIsRecorded() async throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = root.appendingPathComponent("live")
        let recorder = try FollowTests.start(["replay", Repository.root.appendingPathComponent("Samples/panel").path, "--out", live.path,
                                              "--speed", "3"], log: root.appendingPathComponent("replay.log"))
        defer { recorder.terminate() }
        let disk = try SmallFileSystem(bytes: 4 << 20)
        defer { disk.unmount() }
        try disk.fill(leaving: 150_000)
        let before = disk.listing()
        let full = try CLI.run(["compose", live.path, "--follow", "--out", disk.root.appendingPathComponent("out").path] + FollowTests.encoding)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(Self.namedFile(full.stderr, under: disk.root) != nil, "\(full.stderr)")
        #expect(recorder.isRunning, "stopped before the session ended")
        #expect(disk.listing() == before, "no work or staging left")
    }

    /// `import janus` converting recordings onto a full disk: 74, the file named, no capture left half-written.
    @Test func importStopsAt74() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = try SyntheticJanusRoom(in: root)
        try room.write(upTo: room.endUs + 1_000_000)
        let disk = try SmallFileSystem(bytes: 1 << 20)
        defer { disk.unmount() }
        try disk.fill(leaving: 40_000)
        let before = disk.listing()
        let capture = disk.root.appendingPathComponent("capture")
        let full = try CLI.run(["import", "janus", room.folder.path, "--events", room.events.path, "--out", capture.path])
        #expect(full.status == 74, "\(full.stderr)")
        #expect(Self.namedFile(full.stderr, under: disk.root) != nil, "\(full.stderr)")
        #expect(disk.listing() == before, "no half-written capture")
    }

    /// Processes whose command line names `text`.
    static func processes(naming text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }
    }
}
