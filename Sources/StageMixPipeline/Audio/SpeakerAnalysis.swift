public import Foundation
public import StageMixCapture
public import StageMixPlan
import StageMixMedia
import StageMixTime

/// The audio-only pass behind a speaker layout: decodes each microphone the stage timeline lets the
/// mix hear (where it lets it: a muted, left-out or off-stage microphone counts as not heard) and
/// measures its level every 100 ms of the composition's time, then lets ``ActiveSpeakerDetector``
/// decide. It runs before planning, so `stagemix plan` shows the speakers and billing stays a
/// function of the plan. Only microphones are read; no video is touched.
public struct SpeakerAnalysis {
    let capture: Capture
    let timeline: StageTimeline

    public init(capture: Capture, timeline: StageTimeline) {
        self.capture = capture
        self.timeline = timeline
    }

    /// The speakers over the timeline. An unreadable microphone counts as silent (compose reports it).
    /// `shouldStop` is polled every 100 ms of audio; when it says so, this throws `CancellationError`.
    /// Each hop's levels go straight to the detector: nothing grows with the session's length.
    public func speakers(detector start: ActiveSpeakerDetector = ActiveSpeakerDetector(),
                         shouldStop: () -> Bool = { false }) throws -> SpeakerTimeline {
        var detector = start
        let hop = MediaTime.samples(ms: SpeakerLevels.hopMs)
        var energy: [String: (sum: Double, count: Int)] = [:]   // this hop's, by microphone track
        var segmentIndex = 0
        try AudibleTrackWalk(capture: capture, hop: hop).run(
            durationMs: timeline.durationMs, shouldStop: shouldStop,
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
        return detector.finish(durationMs: timeline.durationMs)
    }
}

extension SpeakerAnalysis {
    /// The pass as planning takes it (`CompositionInput.plan(speakers:)`), for `plan`, `preview`,
    /// `compose` and the service's dry run alike, so each plans the speakers the composition shows.
    /// `shouldStop` is `compose`'s signal check.
    public static func planningPass(shouldStop: @escaping @Sendable () -> Bool = { false })
        -> @Sendable (Capture, StageTimeline) throws -> SpeakerTimeline {
        { capture, timeline in try SpeakerAnalysis(capture: capture, timeline: timeline).speakers(shouldStop: shouldStop) }
    }
}
