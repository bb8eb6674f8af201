import Foundation
import Testing
import StageMixTestSupport
import StageMixSynth

/// The `stagemix` executable as a user runs it: exit codes, messages, and output that appears whole or not at all.
@Suite("stagemix command line", .serialized)
struct CommandLineTests {
    /// The built `stagemix` next to the test bundle.
    static var executable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("stagemix").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("stagemix")
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// A new scratch folder (the test-support module's); each test removes it when it ends.
    static func temporaryDirectory() throws -> URL { ScratchDirectory("cli").url }

    @Test func badCaptureExits65NamingFileAndPathAndLeavesEarlierOutputAlone() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(2_000), to: capture)
        let manifest = capture.appendingPathComponent("session.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "stagemix.capture/1", with: "stagemix.capture/9").write(to: manifest, atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "earlier".write(to: out.appendingPathComponent("keep.txt"), atomically: true, encoding: .utf8)

        let result = try Self.run(["compose", capture.path, "--out", out.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("session.json"))
        #expect(result.stderr.contains("$.format"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("keep.txt").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no staging directory left behind: \(leftovers)")

        let plan = try Self.run(["plan", capture.path])
        #expect(plan.status == 65)
        #expect(try Self.run(["compose", capture.path, "--out", out.path, "--resolution", "999x7"]).status != 0)
    }

    /// A ladder that cannot be made is a usage error (64) naming --renditions, before anything is
    /// written: a frame rate that does not divide the layout's, a rendition of another shape.
    @Test func aLadderThatCannotBeMadeExits64BeforeWriting() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(1_000), to: capture)
        let out = root.appendingPathComponent("out")
        for ladder in ["1280x720@3M,640x360@1M@7", "1280x720@3M,640x480@1M", "1280x720"] {
            let result = try Self.run(["compose", capture.path, "--out", out.path, "--renditions", ladder])
            #expect(result.status == 64, "\(ladder): \(result.stderr)")
            #expect(result.stderr.contains("--renditions"), "\(ladder): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test func missingMediaIsReportedAndTheCompositionGoesOn() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        // Ana alone fills the canvas with her high layer: take that file away.
        let ana = try #require(expected.tracks.first { $0.id == "TR_ana_cam" })
        let high = try #require(ana.layers?.first { $0.quality == "high" })
        try FileManager.default.removeItem(at: capture.appendingPathComponent(high.file))

        let out = root.appendingPathComponent("out")
        let result = try Self.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(high.file))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lost = try #require(report?["lostMedia"] as? [String: String])
        #expect(lost.keys.contains { $0.contains("TR_ana_cam") || $0.contains(high.file) })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("hls/index.m3u8").path))
        // Progress went to stdout as JSON lines, since stdout is not a terminal.
        #expect(result.stdout.split(separator: "\n").last?.contains("\"percent\":100.0") == true)
    }

    @Test func previewWritesAPNG() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        let png = root.appendingPathComponent("frame.png")
        let result = try Self.run(["preview", capture.path, "--at", "2.5", "-o", png.path])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: png)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let late = try Self.run(["preview", capture.path, "--at", "30", "-o", root.appendingPathComponent("late.png").path])
        // An instant past the session is a value of --at: a usage error (64), as README says of option values.
        #expect(late.status == 64)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("late.png").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["capture", "frame.png"], "no staging file left")
    }

    @Test func planShowsEveryTilesLabelAndLabelsOffRemovesThem() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        func labels(_ extra: [String]) throws -> [String] {
            let result = try Self.run(["plan", capture.path, "--json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let intervals = (json?["plan"] as? [String: Any])?["intervals"] as? [[String: Any]] ?? []
            return intervals.flatMap { ($0["tiles"] as? [[String: Any]] ?? []).compactMap { ($0["label"] as? [String: Any])?["text"] as? String } }
        }
        let on = try labels([])
        #expect(Set(on) == ["Ana", "Ben"], "\(on)")
        #expect(try labels(["--labels", "on"]) == on)
        #expect(try labels(["--labels", "off"]) == [])
        let bad = try Self.run(["plan", capture.path, "--labels", "maybe"])
        #expect(bad.status == 64, "\(bad.stderr)")
    }
}
