import StageMixCapture
import StageMixPlan

/// A followed run's speaker pass (for a layout that listens): one ``SpeakerListener`` that hears on as
/// the session is recorded, and to its end for the whole session's plan, so that plan's speakers are
/// a whole run's without listening to the session again.
final class SpeakerListening: @unchecked Sendable {
    private var listener: SpeakerListener?
    /// Whether the layout asked for speakers.
    var listens: Bool { listener != nil }

    /// The speakers of `timeline` as heard to `heardToMs` (whole hops; the timeline's end for the whole session).
    /// `growing`: the files are still being recorded.
    func speakers(capture: Capture, timeline: StageTimeline, heardToMs: Int, growing: Bool, shouldStop: () -> Bool) throws -> SpeakerTimeline {
        let listener = self.listener ?? SpeakerListener(capture: capture)
        self.listener = listener
        try listener.listen(capture: capture, timeline: timeline, toMs: min(heardToMs, timeline.durationMs), growing: growing,
                            shouldStop: shouldStop)
        return listener.speakers(durationMs: timeline.durationMs)
    }
}
