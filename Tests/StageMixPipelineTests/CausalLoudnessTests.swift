import Foundation
import Testing
import StageMixMedia
import StageMixTime
@testable import StageMixPipeline

/// The loudness of a followed run, decided from what has been heard so far: two voices 20 dB apart
/// (tones gated on and off like talk), one joining late, mixed through ``CausalLoudness`` as
/// ``AudioMix`` mixes them. The output lands on target, the quiet voice is brought up, and once
/// settled no gain moves faster than its slow slew, whatever the talk does: no pumping.
@Suite("causal loudness")
struct CausalLoudnessTests {
    /// A tone at `amplitude`, on for 1.5 s and off for 0.5 s, from sample `start` of the session.
    static func talk(_ n: Int, amplitude: Float, hz: Float) -> Float {
        let t = Float(n) / Float(MediaTime.sampleRate)
        return t.truncatingRemainder(dividingBy: 2) < 1.5 ? amplitude * sin(2 * .pi * hz * t) : 0
    }

    @Test func aSessionHeardAsItGoesLandsOnTargetWithoutPumping() throws {
        let loudness = try CausalLoudness(targetLUFS: -16)
        let output = try LoudnessMeter(channels: 2, sampleRate: MediaTime.sampleRate)
        let block = 1_600
        let seconds = 120
        var loud = [Float](repeating: 0, count: block), quiet = loud, mix = loud
        var master: [Double] = [], quietGain: [Double] = []
        var appliedLoud: Float = 1, appliedQuiet: Float = 1, appliedMaster: Float = 1
        for b in 0..<(seconds * MediaTime.sampleRate / block) {
            let start = b * block
            // The quiet voice joins after 20 s.
            let quietOn = start >= 20 * MediaTime.sampleRate
            for i in 0..<block {
                loud[i] = Self.talk(start + i, amplitude: 0.05, hz: 440)
                quiet[i] = quietOn ? Self.talk(start + i + 24_000, amplitude: 0.005, hz: 660) : 0
            }
            try loud.withUnsafeBufferPointer { try loudness.heard("loud", $0) }
            if quietOn { try quiet.withUnsafeBufferPointer { try loudness.heard("quiet", $0) } }
            let gLoud = loudness.trackGain("loud"), gQuiet = loudness.trackGain("quiet")
            for i in 0..<block {
                let r = Float(i + 1) / Float(block)
                mix[i] = (appliedLoud + (gLoud - appliedLoud) * r) * loud[i] + (appliedQuiet + (gQuiet - appliedQuiet) * r) * quiet[i]
            }
            appliedLoud = gLoud
            appliedQuiet = gQuiet
            mix.withUnsafeBufferPointer { loudness.mixed($0, anyHeard: true) }
            let gMaster = loudness.masterGain
            for i in 0..<block { mix[i] *= appliedMaster + (gMaster - appliedMaster) * Float(i + 1) / Float(block) }
            appliedMaster = gMaster
            output.add(planar: [mix, mix])
            if (start + block) % MediaTime.sampleRate < block {
                master.append(loudness.masterGainDB)
                quietGain.append(loudness.trackGainDB["quiet"] ?? 0)
            }
        }
        #expect(abs(output.integratedLUFS - -16) <= 1, "\(output.integratedLUFS)")
        // The quiet voice is brought up by about the 20 dB between them.
        #expect(abs(quietGain.last! - 20) <= 1, "\(quietGain)")
        // Settled (after 8 s of the mix, and 8 s of the quiet voice), a gain moves at most 0.5 dB a second.
        for second in 9..<master.count {
            #expect(abs(master[second] - master[second - 1]) <= 0.5 + 1e-9, "master at \(second) s: \(master)")
        }
        for second in 29..<quietGain.count {
            #expect(abs(quietGain[second] - quietGain[second - 1]) <= 0.5 + 1e-9, "quiet at \(second) s: \(quietGain)")
        }
        // And over the last minute it hardly moves at all.
        #expect(abs(master[master.count - 1] - master[master.count - 60]) <= 1.5, "\(master)")
    }
}
