import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The audio side of a composition: one reader per audible track, summed and limited into stereo blocks.
final class AudioMix {
    private var capture: Capture
    private var readers: [String: AudioTrackReader] = [:]
    private var failed: Set<String> = []
    private var mixer: AudioMixer
    /// Per-track gains and the master gain: none, the loudness pass's, or decided as the audio comes.
    let levels: MixLevels
    private let trackGains: [String: Float]
    private let masterGain: Float
    /// Causal gains: each track's and the master's as the last block ended, ramped from to the next decision.
    private var applied: [String: Float] = [:]
    private var appliedMaster: Float = 1
    private var scratch: [Float] = []
    private var mono: [Float] = []
    /// Media files that could not be read, with why.
    private(set) var lostMedia: [String: String] = [:]
    private let ledger: LossLedger

    init(capture: Capture, ledger: LossLedger, levels: MixLevels = .none) {
        self.capture = capture
        self.ledger = ledger
        self.levels = levels
        if case .fixed(let result) = levels {
            trackGains = result.trackGains
            masterGain = result.masterGain
        } else {
            trackGains = [:]
            masterGain = 1
        }
        // Normalised output keeps its true peak at most -1 dBTP: the sample ceiling leaves room for inter-sample peaks.
        mixer = AudioMixer(ceiling: levels.normalised ? AudioMixer.normalisedCeiling : AudioMixer.defaultCeiling)
    }

    /// A followed run's capture known further: tracks that appeared since can be read.
    func extend(to capture: Capture) { self.capture = capture }

    /// Whether the files are still being recorded (`compose --follow`, until the session ends): an end
    /// met is where the recorder has got to, and a file still empty or not there yet is not a loss.
    var growing = false {
        didSet { for reader in readers.values { reader.growing = growing } }
    }

    /// Appends session samples `[start, start + count)` of `interval`, the sum of its unmuted tracks,
    /// to every plane of `planes` (the mix is mono; each output channel carries it).
    func append(_ interval: PlanInterval, start: Int, count: Int, to planes: inout [[Float]]) {
        if mono.count != count { mono = [Float](repeating: 0, count: count) }
        for i in 0..<count { mono[i] = 0 }
        let audible = interval.audio.filter { !$0.muted }
        readers = readers.filter { id, _ in audible.contains { $0.trackId == id } }
        mono.withUnsafeMutableBufferPointer { out in
            for source in audible where !failed.contains(source.file) {
                do throws(MediaError) {
                    try mix(source, into: out, from: start)
                } catch where growing && readers[source.trackId] == nil && (AudioTrackReader.size(of: capture.media(source.file)) ?? 0) == 0 {
                    // Named before its first sample: silence until it has one.
                } catch {
                    // Could not open, or could not read on: silence from here to wherever the plan has it.
                    failed.insert(source.file)
                    lostMedia[source.file] = "\(source.trackId): \(error)"
                    readers[source.trackId] = nil
                    ledger.note(MediaLoss.Cause(failure: error), trackId: source.trackId, layer: nil, file: source.file,
                                fromMs: MediaTime.ms(atSample: start), detail: error.description)
                }
            }
            if case .causal(let causal) = levels {
                causal.mixed(UnsafeBufferPointer(out), anyHeard: !audible.isEmpty)
                appliedMaster = Self.ramp(out, from: appliedMaster, to: causal.masterGain)
            } else if masterGain != 1 {
                for i in out.indices { out[i] *= masterGain }
            }
            mixer.limit(out)
        }
        for index in planes.indices { planes[index] += mono }
    }

    /// Adds one track into `out`, through its gain if it has one other than unity.
    private func mix(_ source: PlannedAudio, into out: UnsafeMutableBufferPointer<Float>, from start: Int) throws(MediaError) {
        let reader = try reader(for: source)
        if case .causal(let causal) = levels {
            try mixCausally(source, reader: reader, causal: causal, into: out, from: start)
            return
        }
        guard let gain = trackGains[source.trackId], gain != 1 else {
            try reader.mix(into: out, from: start)
            return
        }
        if scratch.count < out.count { scratch = [Float](repeating: 0, count: out.count) }
        for i in 0..<out.count { scratch[i] = 0 }
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
            try reader.mix(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<out.count]), from: start)
        }
        for i in out.indices { out[i] += gain * scratch[i] }
    }

    /// Adds one track into `out` through the gain decided so far, measuring it first: the gain ramps
    /// from where the last block left it to the one decided since, sample by sample.
    private func mixCausally(_ source: PlannedAudio, reader: AudioTrackReader, causal: CausalLoudness,
                             into out: UnsafeMutableBufferPointer<Float>, from start: Int) throws(MediaError) {
        if scratch.count < out.count { scratch = [Float](repeating: 0, count: out.count) }
        for i in 0..<out.count { scratch[i] = 0 }
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
            let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<out.count])
            try reader.mix(into: block, from: start)
            try causal.heard(source.trackId, UnsafeBufferPointer(block))
        }
        let target = causal.trackGain(source.trackId)
        let from = applied[source.trackId] ?? target
        let count = Float(out.count)
        for i in out.indices { out[i] += (from + (target - from) * Float(i + 1) / count) * scratch[i] }
        applied[source.trackId] = target
    }

    /// Multiplies `out` by a gain going from `from` to `to` across it; returns `to`.
    private static func ramp(_ out: UnsafeMutableBufferPointer<Float>, from: Float, to: Float) -> Float {
        let count = Float(out.count)
        if from == to {
            if to != 1 { for i in out.indices { out[i] *= to } }
        } else {
            for i in out.indices { out[i] *= from + (to - from) * Float(i + 1) / count }
        }
        return to
    }

    private func reader(for source: PlannedAudio) throws(MediaError) -> AudioTrackReader {
        if let reader = readers[source.trackId] { return reader }
        let offset = capture.track(source.trackId)?.startOffsetMs ?? 0
        let reader = try AudioTrackReader(media: capture.media(source.file), file: source.file, trackId: source.trackId,
                                          startOffsetMs: offset, ledger: ledger)
        reader.growing = growing
        readers[source.trackId] = reader
        return reader
    }
}
