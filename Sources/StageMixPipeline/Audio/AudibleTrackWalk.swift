import Foundation
import StageMixCapture
import StageMixMedia
import StageMixTime

/// The audio-only passes' common walk (loudness, active speaker): the composition's time in hops,
/// every audible track decoded where the session has it and handed over hop by hop, one reader per
/// track kept while it stays audible. A track that cannot be read (or that `take` refuses) is left
/// out from then on: the composition itself finds the same trouble and reports it.
///
/// A walk goes on from where it stopped: a followed run's speaker pass (``SpeakerListening``) walks
/// on as the session is recorded, its readers kept, a whole number of hops at a time.
final class AudibleTrackWalk {
    /// A track to hear and its file.
    struct Source {
        var trackId: String
        var file: String
    }

    /// From an output instant to its stretch: where it ends (output ms), how much later the session
    /// is read (ms), and what is audible.
    struct Stretch {
        var endMs: Int
        var sessionOffsetMs: Int
        var sources: [Source]
    }

    /// The capture as far as it is known (a followed run's grows: tracks appear).
    var capture: Capture
    /// Samples per hop, at 48 kHz.
    let hop: Int
    private var readers: [String: AudioTrackReader] = [:]
    private var failed: Set<String> = []
    /// A hop's samples of one track. Stored, not `lazy`: a lazy array is got and set whole around each
    /// element written, a copy of the hop per sample (it was three quarters of the loudness pass's time).
    private var scratch: [Float]
    /// What the readers find wrong here the composition finds again and reports.
    private let unreported = LossLedger()
    /// Whether the files are still being recorded (see ``AudioMix/growing``).
    var growing = false {
        didSet { for reader in readers.values { reader.growing = growing } }
    }
    /// Where the walk is: the next sample and the next hop's index.
    private var start = 0
    private var index = 0

    init(capture: Capture, hop: Int) {
        self.capture = capture
        self.hop = hop
        scratch = [Float](repeating: 0, count: hop)
    }

    /// Walks on to `durationMs` (from 0 the first time): `stretch` says what is audible from an output ms (nil: nothing from
    /// there on), `take` gets each audible track's samples (part of a hop, never across a stretch's
    /// end) with the hop's index, and `endOfHop` follows each hop. Polls `shouldStop` once a hop.
    func run(durationMs: Int, shouldStop: () -> Bool, stretch: (Int) -> Stretch?,
             take: (_ hop: Int, _ trackId: String, _ samples: ArraySlice<Float>) throws -> Void,
             endOfHop: (_ hop: Int, _ heard: Set<String>) -> Void) throws {
        let totalSamples = MediaTime.samples(ms: durationMs)
        while start < totalSamples {
            if shouldStop() { throw CancellationError() }
            let hopEnd = min(totalSamples, start + hop)
            var heard: Set<String> = []
            var at = start
            while at < hopEnd {
                guard let here = stretch(MediaTime.ms(atSample: at)) else { break }
                let end = min(hopEnd, max(at + 1, MediaTime.samples(ms: here.endMs)))
                let sessionAt = MediaTime.sessionSample(at, sessionOffsetMs: here.sessionOffsetMs)
                for source in here.sources where !failed.contains(source.trackId) {
                    do {
                        let reader = try readers[source.trackId] ?? AudioTrackReader(
                            media: capture.media(source.file), file: source.file, trackId: source.trackId,
                            startOffsetMs: capture.track(source.trackId)?.startOffsetMs ?? 0, ledger: unreported)
                        reader.growing = growing
                        readers[source.trackId] = reader
                        let count = end - at
                        try scratch.withUnsafeMutableBufferPointer { buffer in
                            let samples = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                            samples.update(repeating: 0)
                            try reader.mix(into: samples, from: sessionAt)
                        }
                        try take(index, source.trackId, scratch[0..<count])
                        heard.insert(source.trackId)
                    } catch where growing && readers[source.trackId] == nil && (AudioTrackReader.size(of: capture.media(source.file)) ?? 0) == 0 {
                        // Named before its first sample: silence until it has one.
                    } catch {
                        failed.insert(source.trackId)
                        readers[source.trackId] = nil
                    }
                }
                // Readers of tracks no longer audible close, as the composition's do; heard again later, they seek.
                readers = readers.filter { id, _ in here.sources.contains { $0.trackId == id } }
                at = end
            }
            endOfHop(index, heard)
            index += 1
            start = hopEnd
        }
    }
}
