import StageMixCore
import StageMixPipeline

/// The speaker pass as the commands hand it to planning: the microphones decoded and measured
/// (``SpeakerAnalysis``), for layouts whose focus is the speaker.
enum SpeakerPass {
    static func run(capture: Capture, timeline: StageTimeline) throws -> SpeakerTimeline {
        try SpeakerAnalysis(capture: capture, timeline: timeline).speakers()
    }

    /// The pass for `compose`, stopped by a signal as the composition is.
    static func stoppable(_ signals: StopSignals) -> @Sendable (Capture, StageTimeline) throws -> SpeakerTimeline {
        { capture, timeline in try SpeakerAnalysis(capture: capture, timeline: timeline).speakers(shouldStop: { signals.stopRequested }) }
    }
}
