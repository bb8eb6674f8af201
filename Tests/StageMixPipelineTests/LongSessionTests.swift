import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixSynth

/// A session of tens of minutes composed by the `stagemix` executable, as `scripts/soak` composes
/// hours of it (docs/limits.md, "Long sessions"): the last segment's program date time exact to the
/// millisecond, billing exact, and memory flat. Half-second segments make whatever is kept per
/// segment eight times as visible as the default's: libavformat's own segment list (12 KB each) was
/// 29 MB by the end of this session.
@Suite("Long sessions", .serialized)
struct LongSessionTests {
    static let minutes = 20
    static let segmentSeconds = 0.5

    /// A microphone on stage for the whole session, no camera; started at a time with milliseconds.
    static var scenario: Scenario {
        let maya = ScenarioParticipant.palette(0, id: "p-maya", name: "Maya", tracks: [ScenarioTrack(id: "TR_maya_mic", source: .microphone)])
        let events: [ManifestEvent] = [.joined(0, maya.id, role: "host"), .pinned(0, maya.id), .published(0, "TR_maya_mic")]
        return Scenario(sessionId: "ls-long", startedAt: "2026-11-20T18:00:00.250Z", durationMs: minutes * 60_000,
                        roles: CaptureManifest.Role.stageRoles, participants: [maya], events: events)
    }

    @Test func twentyMinutesEndExactWithMemoryFlat() throws {
        let root = ScratchDirectory("long").url
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture"), out = root.appendingPathComponent("out")
        try CaptureSynthesizer().synthesize(Self.scenario, to: capture)

        let run = try Self.composeSampling(["compose", capture.path, "--out", out.path, "--resolution", "64x36", "--fps", "2",
                                            "--preset", "ultrafast", "--audio-bitrate", "32k",
                                            "--segment-seconds", String(Self.segmentSeconds)],
                                           sessionSeconds: Double(Self.minutes * 60), settleSeconds: 300)
        #expect(run.status == 0, "\(run.stderr)")

        // The last segment: its place is its index times the segment length, to the microsecond of the
        // playlist's durations, and its program date time is startedAt plus that place, to the millisecond.
        let playlist = try String(contentsOf: out.appendingPathComponent("hls/index.m3u8"), encoding: .utf8)
        let lines = playlist.split(separator: "\n").map(String.init)
        let durations = lines.filter { $0.hasPrefix("#EXTINF:") }.map { $0.dropFirst(8).prefix { $0 != "," } }
        let dates = lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
        let segments = Self.minutes * 60 * 2
        #expect(durations.count == segments && dates.count == segments)
        #expect(durations.dropLast().allSatisfy { $0 == "0.500000" })
        #expect(dates.last == "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:19:59.750Z")  // 18:00:00.250 + 2,399 x 0.5 s
        #expect(lines.last == "#EXT-X-ENDLIST")

        // Billing: every started minute of the session, audio only.
        let billing = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("billing.json"))) as? [String: Any]
        let perTier = (billing?["minutesPerTier"] as? [[String: Any]] ?? []).reduce(into: [String: Int]()) {
            $0[$1["tier"] as? String ?? ""] = $1["minutes"] as? Int
        }
        #expect(perTier == ["audio": Self.minutes, "HD": 0, "Full HD": 0, "2K": 0, "2K+": 0])

        // Memory: the peak at the end against the peak once five minutes of session were composed.
        let settled = try #require(run.peakAfterSettleKB, "no sample after 5 minutes of session: \(run.samples) samples")
        #expect(Double(run.peakKB) <= 1.2 * Double(settled), "peak \(run.peakKB) KB at the end, \(settled) KB after 5 minutes of session")
    }

    struct SampledRun { var status: Int32; var stderr: String; var peakAfterSettleKB: Int?; var peakKB: Int; var samples: Int }

    /// Runs `stagemix` with `arguments`, reading its progress lines (stdout, JSON when not a terminal) and
    /// its peak resident memory (`VmHWM`) every 50 ms: the peak when `settleSeconds` of session were
    /// composed, and the last seen before it exited.
    static func composeSampling(_ arguments: [String], sessionSeconds: Double, settleSeconds: Double) throws -> SampledRun {
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let position = Position()
        out.fileHandleForReading.readabilityHandler = { handle in position.take(handle.availableData, total: sessionSeconds) }
        let errors = Collected()
        err.fileHandleForReading.readabilityHandler = { handle in errors.append(handle.availableData) }
        try process.run()
        var settled: Int?, peak = 0, samples = 0
        while process.isRunning {
            if let hwm = peakResidentKB(of: process.processIdentifier) {
                peak = max(peak, hwm)
                samples += 1
                if settled == nil, position.seconds >= settleSeconds { settled = hwm }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        return SampledRun(status: process.terminationStatus, stderr: errors.text, peakAfterSettleKB: settled, peakKB: peak, samples: samples)
    }

    static func peakResidentKB(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// The session position the progress lines give, from any thread.
    final class Position: @unchecked Sendable {
        private let lock = NSLock()
        private var pending = ""
        private var value = 0.0
        var seconds: Double { lock.withLock { value } }

        func take(_ data: Data, total: Double) {
            lock.withLock {
                pending += String(decoding: data, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = pending[..<end]
                    pending = String(pending[pending.index(after: end)...])
                    if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                       let percent = object["percent"] as? Double {
                        value = percent / 100 * total
                    }
                }
            }
        }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
}
