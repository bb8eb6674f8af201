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
        let listener = SpeakerListener(capture: capture, detector: start)
        try listener.listen(capture: capture, timeline: timeline, toMs: timeline.durationMs, shouldStop: shouldStop)
        return listener.speakers(durationMs: timeline.durationMs)
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
