import Foundation
import StageMixCapture
import StageMixPlan
import StageMixTime

/// The speaker pass's listening (``SpeakerAnalysis``): each microphone the stage timeline lets the
/// mix hear, measured every 100 ms of the composition's time, each hop's levels handed to
/// ``ActiveSpeakerDetector``. It listens on from where it stopped: a whole run listens to the whole
/// timeline at once; a followed run (``SpeakerListening``) a whole number of hops further each time
/// the recording has gone on, with the same readers and the same detector, so what it has heard is
/// what a whole run hears.
final class SpeakerListener {
    private let walk: AudibleTrackWalk
    private var detector: ActiveSpeakerDetector
    /// This hop's energy, by microphone track.
    private var energy: [String: (sum: Double, count: Int)] = [:]
    /// How far it has listened, in ms of the composition's time.
    private(set) var heardMs = 0

    init(capture: Capture, detector: ActiveSpeakerDetector = ActiveSpeakerDetector()) {
        walk = AudibleTrackWalk(capture: capture, hop: MediaTime.samples(ms: SpeakerLevels.hopMs))
        self.detector = detector
    }

    /// Listens on to `toMs` over `timeline` (the capture as known now: a followed run's tracks appear).
    /// `growing`: the files are still being recorded (a followed run before the session's end).
    func listen(capture: Capture, timeline: StageTimeline, toMs: Int, growing: Bool = false, shouldStop: () -> Bool) throws {
        guard toMs > heardMs else { return }
        walk.capture = capture
        walk.growing = growing
        var segmentIndex = 0
        try walk.run(
            durationMs: toMs, shouldStop: shouldStop,
            stretch: { ms in
                while segmentIndex + 1 < timeline.segments.count, timeline.segments[segmentIndex].endMs <= ms { segmentIndex += 1 }
                guard segmentIndex < timeline.segments.count else { return nil }
                let segment = timeline.segments[segmentIndex]
                // Microphones the mix hears: on stage, flowing (not muted, not left out).
                let sources = segment.onStage.flatMap(\.tracks)
                    .filter { $0.source == .microphone && $0.flow == .flowing }
                    .compactMap { track in capture.track(track.trackId)?.file.map { AudibleTrackWalk.Source(trackId: track.trackId, file: $0) } }
                return .init(endMs: segment.endMs, sessionOffsetMs: segment.sessionOffsetMs ?? 0, sources: sources)
            },
            take: { _, trackId, samples in
                var sum = 0.0
                for x in samples { sum += Double(x * x) }
                energy[trackId, default: (0, 0)].sum += sum
                energy[trackId, default: (0, 0)].count += samples.count
            },
            endOfHop: { _, _ in
                var heard: [String: Float] = [:]
                for (trackId, e) in energy {
                    guard let id = capture.track(trackId)?.participantId else { continue }
                    let rms = (e.sum / Double(max(1, e.count))).squareRoot()
                    let db = rms > 0 ? max(SpeakerLevels.quietest, Float(20 * log10(rms))) : SpeakerLevels.quietest
                    // A participant is as loud as the louder of their microphones.
                    heard[id] = max(heard[id] ?? SpeakerLevels.quietest, db)
                }
                energy = [:]
                detector.hop(heard)
            })
        heardMs = toMs
    }

    /// The speakers over `[0, durationMs)`, as heard so far.
    func speakers(durationMs: Int) -> SpeakerTimeline {
        detector.finish(durationMs: durationMs)
    }
}
