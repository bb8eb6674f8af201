import StageMixCore
import StageMixPipeline

/// The speaker pass as the commands hand it to planning: the microphones decoded and measured
/// (``SpeakerAnalysis``), for layouts whose focus is the speaker.
enum SpeakerPass {
    static func run(capture: Capture, timeline: StageTimeline) -> SpeakerTimeline {
        SpeakerAnalysis(capture: capture, timeline: timeline).speakers()
    }
}
