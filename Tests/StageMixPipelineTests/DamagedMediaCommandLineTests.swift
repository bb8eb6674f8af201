import Foundation
import Testing
import StageMixSynth
#if canImport(Glibc)
import Glibc
#endif

/// `stagemix compose` over captures whose media cannot be trusted: it must finish, whatever a file is.
@Suite("stagemix compose over damaged media", .serialized)
struct DamagedMediaCommandLineTests {
    struct Run { var status: Int32; var stderr: String }

    /// Runs `stagemix` and kills it after `seconds`; nil when it had to be killed.
    static func run(_ arguments: [String], within seconds: Double, in dir: URL) throws -> Run? {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        let errURL = dir.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? err.close() }
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            _ = done.wait(timeout: .now() + 10)
            return nil
        }
        return Run(status: process.terminationStatus, stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    @Test func aFIFOInPlaceOfALayerIsReportedUnreadableAndComposeFinishes() throws {
        let root = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        let high = try #require(expected.tracks.first { $0.id == "TR_ana_cam" }?.layers?.first { $0.quality == "high" })
        let fifo = capture.appendingPathComponent(high.file)
        try FileManager.default.removeItem(at: fifo)
        #expect(mkfifo(fifo.path, 0o600) == 0)

        let out = root.appendingPathComponent("out")
        let result = try Self.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast"], within: 300, in: root)
        // Whatever happened, release anything still waiting on the FIFO.
        let fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
        let run = try #require(result, "compose hung on a FIFO")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("unreadable"), "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let losses = try #require(report?["losses"] as? [[String: Any]])
        let lost = try #require(losses.first { $0["trackId"] as? String == "TR_ana_cam" }, "\(losses)")
        #expect(lost["layer"] as? String == "high")
        #expect(lost["cause"] as? String == "unreadable")
        #expect(lost["standIn"] as? String == "medium")
        #expect(lost["fromMs"] as? Int == 0 && lost["toMs"] as? Int == 2_000, "\(lost)")
    }
}
