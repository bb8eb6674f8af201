import Foundation
import Testing
import StageMixSynth

/// `stagemix compose` never destroys what it did not write, replaces its own output only when told,
/// and leaves nothing behind when it is stopped or was killed.
@Suite("compose output safety", .serialized)
struct OutputSafetyCommandTests {
    typealias CLI = CommandLineTests

    /// Every file under `directory` with its contents, to show that nothing changed.
    static func snapshot(_ directory: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            files[url.path] = FileManager.default.contents(atPath: url.path) ?? Data("<folder or unreadable>".utf8)
        }
        return files
    }

    static func capture(in root: URL, seconds: Int = 2) throws -> URL {
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(seconds * 1000), to: capture)
        return capture
    }

    static let fast = ["--preset", "ultrafast", "--resolution", "320x180", "--fps", "10"]

    @Test func refusesTheCaptureItsInsideItsParentAFileAndAForeignFolder() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root)
        try "mine".write(to: root.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
        let foreign = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        try "cat".write(to: foreign.appendingPathComponent("cat.jpg"), atomically: false, encoding: .utf8)
        let before = Self.snapshot(root)

        let cases: [(out: String, says: String)] = [
            (capture.path, "is the capture"), (capture.path + "/media", "inside the capture"),
            (capture.path + "/..", "contains the capture"), (root.path + "/notes.txt", "existing file"),
            (foreign.path, "did not write"),
        ]
        for (out, says) in cases {
            for extra in [[], ["--overwrite"]] {
                let result = try CLI.run(["compose", capture.path, "--out", out] + Self.fast + extra)
                #expect(result.status == 65, "--out \(out) \(extra): \(result.stderr)")
                #expect(result.stderr.contains(says), "\(result.stderr)")
            }
        }
        #expect(Self.snapshot(root) == before, "nothing in or beside the capture changed")
    }

    @Test func replacesAnEarlierOutputOnlyWithOverwrite() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root)
        let out = root.appendingPathComponent("out")
        let first = try CLI.run(["compose", capture.path, "--out", out.path] + Self.fast)
        #expect(first.status == 0, "\(first.stderr)")
        let marker = try String(contentsOf: out.appendingPathComponent(".stagemix-output"), encoding: .utf8)
        for name in ["hls", "report.json", "timeline.json", "billing.json", "plan.json"] { #expect(marker.contains("\"\(name)\"")) }
        let earlier = Self.snapshot(out)

        let again = try CLI.run(["compose", capture.path, "--out", out.path] + Self.fast)
        #expect(again.status == 65)
        #expect(again.stderr.contains("--overwrite"))
        #expect(Self.snapshot(out) == earlier)

        let replaced = try CLI.run(["compose", capture.path, "--out", out.path, "--overwrite"] + Self.fast)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("hls/index.m3u8").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["capture", "out"])
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aStopSignalEndsComposeLeavingTheEarlierOutputAndNoStaging(signal: Int32, status: Int32) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root, seconds: 15)
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        // An earlier output, made by hand with the marker compose writes.
        try #"{"format": "stagemix.output/1", "entries": ["old.txt"], "publishedAt": "2026-01-01T00:00:00Z"}"#
            .write(to: out.appendingPathComponent(".stagemix-output"), atomically: false, encoding: .utf8)
        try "earlier".write(to: out.appendingPathComponent("old.txt"), atomically: false, encoding: .utf8)
        let earlier = Self.snapshot(out)

        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["compose", capture.path, "--out", out.path, "--overwrite", "--preset", "ultrafast"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Stop it once it is composing: its first progress line.
        var seen = ""
        while !seen.contains("\"progress\"") {
            let data = stdout.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        #expect(seen.contains("\"progress\""))
        let staging = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".out.stagemix-") }
        #expect(staging.count == 1, "composing into a staging folder beside the output: \(staging)")
        kill(process.processIdentifier, signal)
        let signalled = Date()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(signalled) < 10, "stopped promptly")
        #expect(process.terminationStatus == status)
        #expect(Self.snapshot(out) == earlier, "the earlier output is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["capture", "out"], "no staging folder left")
    }

    @Test func whatAKilledComposeLeftIsSweptByTheNext() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root)
        // A SIGKILLed compose's staging: a pid that no longer runs. A live process's staging stays.
        let dead = root.appendingPathComponent(".out.stagemix-2147483647-1-1")
        let live = root.appendingPathComponent(".out.stagemix-\(getpid())-\(Self.startTicks())-2")
        for folder in [dead, live] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("hls"), withIntermediateDirectories: true)
        }
        // A live process staging for the same output is another run writing there: told, and nothing touched.
        let busy = try CLI.run(["compose", capture.path, "--out", root.appendingPathComponent("out").path] + Self.fast)
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("another StageMix run (pid \(getpid())) is writing"), "\(busy.stderr)")
        #expect(FileManager.default.fileExists(atPath: live.path))
        // --overwrite goes ahead (it may replace what that run publishes), sweeping only the dead run's folder.
        let result = try CLI.run(["compose", capture.path, "--out", root.appendingPathComponent("out").path, "--overwrite"] + Self.fast)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }

    @Test func synthAndPreviewNeverWriteOverWhatStageMixDidNotWrite() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root)
        try "photo".write(to: root.appendingPathComponent("photo.png"), atomically: false, encoding: .utf8)
        let before = Self.snapshot(root)
        // A real capture (no marker) is a foreign folder to synth, with or without --overwrite.
        for extra in [[], ["--overwrite"]] {
            let synth = try CLI.run(["synth", "panel", "--duration", "1", "--out", capture.path] + extra)
            #expect(synth.status == 65, "\(synth.stderr)")
            #expect(synth.stderr.contains("did not write"))
        }
        let preview = try CLI.run(["preview", capture.path, "--at", "1", "-o", root.appendingPathComponent("photo.png").path])
        #expect(preview.status == 65)
        #expect(preview.stderr.contains("--overwrite"))
        #expect(Self.snapshot(root) == before)

        // Its own synthesized capture synth replaces with --overwrite; preview replaces a file when told.
        let synthesized = root.appendingPathComponent("synth").path
        #expect(try CLI.run(["synth", "panel", "--duration", "1", "--out", synthesized]).status == 0)
        #expect(try CLI.run(["synth", "panel", "--duration", "1", "--out", synthesized]).status == 65)
        #expect(try CLI.run(["synth", "panel", "--duration", "1", "--out", synthesized, "--overwrite"]).status == 0)
        let replaced = try CLI.run(["preview", capture.path, "--at", "1", "-o", root.appendingPathComponent("photo.png").path, "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: root.appendingPathComponent("photo.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["capture", "photo.png", "synth"])
    }

    static func startTicks() -> String {
        let stat = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) ?? ""
        let afterName = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
        return String(afterName[20])
    }
}
