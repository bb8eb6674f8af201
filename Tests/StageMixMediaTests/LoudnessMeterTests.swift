import Foundation
import Testing
@testable import StageMixMedia

/// The BS.1770 calibration points: a 997 Hz sine at full scale in one channel is −3.01 LUFS, so the
/// same sine at −20 dBFS in both channels of a stereo signal is −20 LUFS, with a true peak of −20 dBTP.
@Suite("loudness meter")
struct LoudnessMeterTests {
    static func sine(amplitude: Float, seconds: Double, rate: Int = 48_000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * sin(2 * .pi * 997 * Float($0) / Float(rate)) }
    }

    @Test func aStereoSineAtMinus20DBFSIsMinus20LUFS() throws {
        let meter = try LoudnessMeter(channels: 2, sampleRate: 48_000)
        let tone = Self.sine(amplitude: 0.1, seconds: 5)
        // Added in blocks of a video frame's length, as the pipeline does.
        for start in stride(from: 0, to: tone.count, by: 1600) {
            let block = Array(tone[start..<min(start + 1600, tone.count)])
            meter.add(planar: [block, block])
        }
        #expect(abs(meter.integratedLUFS - -20) < 0.1, "\(meter.integratedLUFS)")
        #expect(abs(meter.truePeakDBTP - -20) < 0.2, "\(meter.truePeakDBTP)")
    }

    @Test func oneChannelOnlyIsThreeDBQuieterAndSilenceHasNoLoudness() throws {
        let meter = try LoudnessMeter(channels: 2, sampleRate: 48_000)
        let tone = Self.sine(amplitude: 1, seconds: 3)
        meter.add(planar: [tone, [Float](repeating: 0, count: tone.count)])
        #expect(abs(meter.integratedLUFS - -3.01) < 0.1, "\(meter.integratedLUFS)")
        let silent = try LoudnessMeter(channels: 2, sampleRate: 48_000)
        silent.add(planar: [[Float](repeating: 0, count: 48_000), [Float](repeating: 0, count: 48_000)])
        #expect(silent.integratedLUFS == -.infinity)
        #expect(silent.truePeakDBTP == -.infinity)
    }
}
