import StageMixCore
import StageMixMedia

/// The audio side of a composition: one reader per audible track, summed and limited into stereo blocks.
final class AudioMix {
    private let capture: Capture
    private var readers: [String: AudioTrackReader] = [:]
    private var failed: Set<String> = []
    private var mixer = AudioMixer()
    private var mono: [Float] = []
    /// Media files that could not be read, with why.
    private(set) var lostMedia: [String: String] = [:]
    private let ledger: LossLedger

    init(capture: Capture, ledger: LossLedger) {
        self.capture = capture
        self.ledger = ledger
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
                    try reader(for: source).mix(into: out, from: start)
                } catch {
                    // Could not open, or could not read on: silence from here to wherever the plan has it.
                    failed.insert(source.file)
                    lostMedia[source.file] = "\(source.trackId): \(error)"
                    readers[source.trackId] = nil
                    ledger.note(MediaLoss.Cause(failure: error), trackId: source.trackId, layer: nil, file: source.file,
                                fromMs: start * 1000 / AudioTrackReader.sampleRate, detail: error.description)
                }
            }
            mixer.limit(out)
        }
        for index in planes.indices { planes[index] += mono }
    }

    private func reader(for source: PlannedAudio) throws(MediaError) -> AudioTrackReader {
        if let reader = readers[source.trackId] { return reader }
        let offset = capture.track(source.trackId)?.startOffsetMs ?? 0
        let reader = try AudioTrackReader(url: capture.mediaURL(source.file), file: source.file, trackId: source.trackId,
                                          startOffsetMs: offset, ledger: ledger)
        readers[source.trackId] = reader
        return reader
    }
}
