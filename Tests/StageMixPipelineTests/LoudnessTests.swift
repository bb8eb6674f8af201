import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth
import StageMixTestSupport

/// Loudness normalisation, checked by an independent meter (the ffmpeg CLI's ebur128 filter) on the
/// HLS output, with one microphone made by the ffmpeg CLI 20 dB quieter than the other.
@Suite("loudness", .serialized)
struct LoudnessTests {
    static func scenario() -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let ana = ScenarioParticipant.palette(0, id: "p-ana", name: "Ana", tracks: tracks("ana"))
        let ben = ScenarioParticipant.palette(1, id: "p-ben", name: "Ben", tracks: tracks("ben"))
        var events: [ScenarioEvent] = [.joined(0, ana.id, role: "host"), .joined(0, ben.id, role: "speaker"), .pinned(0, ana.id), .pinned(0, ben.id)]
        events += ["ana", "ben"].flatMap { k in [ScenarioEvent.published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")] }
        return Scenario(sessionId: "loud", durationMs: 8_000, roles: ScenarioRole.stageRoles, participants: [ana, ben], events: events)
    }

    /// Integrated loudness and true peak of `file` as `ffmpeg -af ebur128` measures them.
    static func ffmpegLoudness(_ file: URL) throws -> (lufs: Double, truePeak: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-nostats", "-hide_banner", "-i", file.path, "-filter_complex", "ebur128=peak=true", "-f", "null", "-"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The summary at the end: "I:         -16.0 LUFS" ... "Peak:        -1.2 dBFS".
        guard let start = text.range(of: "Summary:", options: .backwards) else { throw TestFailure("no ebur128 summary from ffmpeg: \(text.suffix(2000))") }
        let summary = text[start.upperBound...]
        func value(after label: String) -> Double? {
            guard let range = summary.range(of: label) else { return nil }
            return Double(summary[range.upperBound...].split(separator: " ").first ?? "")
        }
        guard let lufs = value(after: "I:"), let peak = value(after: "Peak:") else { throw TestFailure("no ebur128 summary from ffmpeg: \(text.suffix(2000))") }
        return (lufs, peak)
    }

    @Test func theOutputIsOnTargetAndAQuietParticipantIsBroughtUp() throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-loudness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer().synthesize(Self.scenario(), to: captureDir)
        let benHz = try #require(expected.participants.first { $0.id == "p-ben" }?.toneHz)
        let anaHz = try #require(expected.participants.first { $0.id == "p-ana" }?.toneHz)
        // Ben's microphone, remade by the ffmpeg CLI: the same tone 20 dB under Ana's (0.3 → 0.03).
        let benMic = try #require(expected.tracks.first { $0.id == "TR_ben_mic" }?.file)
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=\(benHz):sample_rate=48000:duration=8",
                            "-af", "volume=0.24", "-ac", "1", "-c:a", "libopus", "-b:a", "64k", captureDir.appendingPathComponent(benMic).path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0)

        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        var outputs: [Double?: (report: CompositionJob.Report, output: ComposedOutput, measured: (lufs: Double, truePeak: Double))] = [:]
        for target in [-16.0, nil] {
            let out = root.appendingPathComponent("out\(target.map { "\(Int($0))" } ?? "off")")
            let report = try CompositionJob(capture: capture, document: doc,
                                            settings: ComposeSettings(preset: "ultrafast", loudnessLUFS: target)).run(out: out)
            let hls = out.appendingPathComponent("hls")
            outputs[target] = (report, try ComposedOutput(hls: hls), try Self.ffmpegLoudness(hls.appendingPathComponent("index.m3u8")))
        }
        let normalised = try #require(outputs[-16.0]), plain = try #require(outputs[nil])
        // On target by another meter, after AAC; the true peak under -1 dBTP (ffmpeg's peak is true peak here).
        #expect(abs(normalised.measured.lufs - -16) <= 1, "\(normalised.measured)")
        #expect(normalised.measured.truePeak <= -0.5, "\(normalised.measured)")
        #expect(abs((normalised.report.loudness.outputLUFS ?? 0) - -16) <= 0.5, "\(normalised.report.loudness)")
        // The report's "before" is what the mix measures without normalisation.
        #expect(abs((normalised.report.loudness.inputLUFS ?? 0) - plain.measured.lufs) <= 1, "\(normalised.report.loudness) vs \(plain.measured)")
        #expect(plain.report.loudness.targetLUFS == nil && plain.report.loudness.outputLUFS != nil)

        // Ben, 20 dB under Ana at the input, comes out within 3 dB of her; without normalisation he stays 20 dB under.
        func gapDB(_ output: ComposedOutput) -> Double {
            let window = output.audio[(output.audio.count / 4)..<(output.audio.count * 3 / 4)]
            return 10 * log10(Goertzel.power(of: anaHz, in: window) / Goertzel.power(of: benHz, in: window))
        }
        #expect(abs(gapDB(normalised.output)) < 3, "\(gapDB(normalised.output)) dB")
        #expect(gapDB(plain.output) > 17, "\(gapDB(plain.output)) dB")
        #expect((normalised.report.loudness.trackGainDB["TR_ben_mic"] ?? 0) > 15)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
