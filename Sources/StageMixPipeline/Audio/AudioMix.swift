import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The audio side of a composition: one reader per audible track, summed and limited into stereo blocks.
final class AudioMix {
    private let capture: Capture
    private var readers: [String: AudioTrackReader] = [:]
    private var failed: Set<String> = []
    private var mixer: AudioMixer
    /// Per-track gains and the master gain from the loudness pass; none when normalisation is off.
    private let levels: LoudnessAnalysis.Result?
    private let trackGains: [String: Float]
    private var scratch: [Float] = []
    private var mono: [Float] = []
    /// Media files that could not be read, with why.
    private(set) var lostMedia: [String: String] = [:]
    private let ledger: LossLedger

    init(capture: Capture, ledger: LossLedger, levels: LoudnessAnalysis.Result? = nil) {
        self.capture = capture
        self.ledger = ledger
        self.levels = levels
        trackGains = levels?.trackGains ?? [:]
        // Normalised output keeps its true peak at most -1 dBTP: the sample ceiling leaves room for inter-sample peaks.
        mixer = AudioMixer(ceiling: levels == nil ? AudioMixer.defaultCeiling : AudioMixer.normalisedCeiling)
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
                } catch {
                    // Could not open, or could not read on: silence from here to wherever the plan has it.
                    failed.insert(source.file)
                    lostMedia[source.file] = "\(source.trackId): \(error)"
                    readers[source.trackId] = nil
                    ledger.note(MediaLoss.Cause(failure: error), trackId: source.trackId, layer: nil, file: source.file,
                                fromMs: MediaTime.ms(atSample: start), detail: error.description)
                }
            }
            if let master = levels?.masterGain, master != 1 { for i in out.indices { out[i] *= master } }
            mixer.limit(out)
        }
        for index in planes.indices { planes[index] += mono }
    }

    /// Adds one track into `out`, through its gain if it has one other than unity.
    private func mix(_ source: PlannedAudio, into out: UnsafeMutableBufferPointer<Float>, from start: Int) throws(MediaError) {
        let reader = try reader(for: source)
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

    private func reader(for source: PlannedAudio) throws(MediaError) -> AudioTrackReader {
        if let reader = readers[source.trackId] { return reader }
        let offset = capture.track(source.trackId)?.startOffsetMs ?? 0
        let reader = try AudioTrackReader(media: capture.media(source.file), file: source.file, trackId: source.trackId,
                                          startOffsetMs: offset, ledger: ledger)
        readers[source.trackId] = reader
        return reader
    }
}
