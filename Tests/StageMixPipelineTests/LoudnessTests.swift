import Foundation
import Testing
import StageMixMedia
import StageMixPipeline
import StageMixTestSupport

/// Loudness normalisation, checked by an independent meter (the ffmpeg CLI's ebur128 filter) on the
/// HLS output, with one microphone made by the ffmpeg CLI 20 dB quieter than the other.
@Suite("loudness", .serialized)
struct LoudnessTests {
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
        let remade = try RemadeCapture(codec: .vp8, scenario: RemadeCapture.anaAndBen(durationMs: 8_000))
        defer { remade.cleanup() }
        let anaHz = try #require(try remade.participant("p-ana").toneHz), benHz = try #require(try remade.participant("p-ben").toneHz)
        // Ben's microphone, remade by the ffmpeg CLI: the same tone 20 dB under Ana's (0.3 → 0.03).
        let benMic = try #require(try remade.track("TR_ben_mic").file)
        try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=\(benHz):sample_rate=48000:duration=8",
                                  "-af", "volume=0.24", "-ac", "1", "-c:a", "libopus", "-b:a", "64k", remade.directory.appendingPathComponent(benMic).path])

        var outputs: [Double?: (composed: RemadeCapture.Composed, measured: (lufs: Double, truePeak: Double))] = [:]
        for target in [-16.0, nil] {
            let composed = try remade.compose(ComposeSettings(preset: "ultrafast", loudnessLUFS: target))
            let playlist = composed.output.directory.appendingPathComponent("index.m3u8")
            outputs[target] = (composed, try Self.ffmpegLoudness(playlist))
        }
        let normalised = try #require(outputs[-16.0]), plain = try #require(outputs[nil])
        let loudness = normalised.composed.report.loudness
        // On target by another meter, after AAC; the true peak under -1 dBTP (ffmpeg's peak is true peak here).
        #expect(abs(normalised.measured.lufs - -16) <= 1, "\(normalised.measured)")
        #expect(normalised.measured.truePeak <= -0.5, "\(normalised.measured)")
        #expect(abs((loudness.outputLUFS ?? 0) - -16) <= 0.5, "\(loudness)")
        // The report's "before" is what the mix measures without normalisation.
        #expect(abs((loudness.inputLUFS ?? 0) - plain.measured.lufs) <= 1, "\(loudness) vs \(plain.measured)")
        #expect(plain.composed.report.loudness.targetLUFS == nil && plain.composed.report.loudness.outputLUFS != nil)

        // Ben, 20 dB under Ana at the input, comes out within 3 dB of her; without normalisation he stays 20 dB under.
        func gapDB(_ output: ComposedOutput) -> Double {
            let window = output.audio[(output.audio.count / 4)..<(output.audio.count * 3 / 4)]
            return 10 * log10(Goertzel.power(of: anaHz, in: window) / Goertzel.power(of: benHz, in: window))
        }
        #expect(abs(gapDB(normalised.composed.output)) < 3, "\(gapDB(normalised.composed.output)) dB")
        #expect(gapDB(plain.composed.output) > 17, "\(gapDB(plain.composed.output)) dB")
        #expect((loudness.trackGainDB["TR_ben_mic"] ?? 0) > 15)
    }
}
