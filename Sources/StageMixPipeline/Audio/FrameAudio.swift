import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The mixed audio of a composition, frame by frame: the samples that end with each output frame,
/// mixed in blocks that never cross an interval boundary, and measured on their way to the AAC
/// encoder. A whole run takes them beside each painted canvas; a chunked run, once for the whole
/// session, while it joins the chunks' video (docs/chunks.md).
final class FrameAudio {
    private var plan: CompositionPlan
    private let mix: AudioMix
    private var totalSamples: Int
    private var samplesDone = 0
    /// Measures what goes to the AAC encoder. The mix is mono, carried by both channels, so one channel
    /// is metered at √2: its blocks then weigh what two identical channels weigh in BS.1770 (+3.01 dB,
    /// the same gates), for half the meter's work (its true peak's 4x oversampling, most of it).
    private let meter: LoudnessMeter
    private var metered: [Float] = []
    private static let stereoGain = Float(2.0.squareRoot())

    /// Integrated loudness of the output (LUFS), and its true peak (dBTP); `-inf` for silence.
    var outputLUFS: Double { meter.integratedLUFS }
    var outputTruePeakDBTP: Double { meter.truePeakDBTP - 20 * log10(Double(Self.stereoGain)) }

    init(capture: Capture, plan: CompositionPlan, ledger: LossLedger, levels: MixLevels) throws(MediaError) {
        self.plan = plan
        mix = AudioMix(capture: capture, ledger: ledger, levels: levels)
        // A histogram meter: a block list would grow by 1.2 MB an hour of session.
        meter = try LoudnessMeter(channels: 1, sampleRate: MediaTime.sampleRate, histogram: true)
        totalSamples = MediaTime.samples(ms: plan.durationMs)
    }

    /// A followed run's plan of the session known further (`compose --follow`): it says what the last
    /// plan said up to where that one ended, and goes on.
    func extend(to plan: CompositionPlan, capture: Capture) {
        self.plan = plan
        totalSamples = MediaTime.samples(ms: plan.durationMs)
        mix.extend(to: capture)
    }

    /// Whether the files are still being recorded (see ``AudioMix/growing``).
    var growing: Bool {
        get { mix.growing }
        set { mix.growing = newValue }
    }

    /// How the mix's gains are set.
    var levels: MixLevels { mix.levels }

    /// Media files that could not be read, with why.
    var lostMedia: [String: String] { mix.lostMedia }

    /// Stereo planes of the audio from where the last call ended to the end of frame `n`, which
    /// shows `interval`. Frames are taken in order, each once.
    func samples(endingFrame n: Int, interval: PlanInterval) -> [[Float]] {
        let audioEnd = min(totalSamples, MediaTime.sample(atFrame: n + 1, fps: plan.fps))
        var planes: [[Float]] = [[], []]
        while samplesDone < audioEnd {
            let at = MediaTime.ms(atSample: samplesDone)
            let current = plan.interval(atMs: at) ?? interval
            let boundary = MediaTime.samples(ms: current.endMs)
            let count = max(1, min(audioEnd, boundary) - samplesDone)
            // Read where the session has it: later than the output by what edits cut before here.
            mix.append(current, start: current.sessionSample(samplesDone), count: count, to: &planes)
            samplesDone += count
        }
        let count = planes[0].count
        if metered.count != count { metered = [Float](repeating: 0, count: count) }
        for i in 0..<count { metered[i] = planes[0][i] * Self.stereoGain }
        metered.withUnsafeBufferPointer { meter.add(mono: $0) }
        return planes
    }
}
