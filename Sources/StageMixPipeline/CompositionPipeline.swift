public import Foundation
public import StageMixCapture
public import StageMixPlan
import StageMixLayout
import StageMixMedia
import StageMixTime

/// Runs a composition plan: decodes what each interval shows, composites, mixes, encodes H.264 and AAC,
/// and writes HLS into a directory. Frames and samples stream through; nothing holds a whole file.
public final class CompositionPipeline {
    public let capture: Capture
    public let plan: CompositionPlan
    public let settings: ComposeSettings
    /// Marked in the output: `EXT-X-DATERANGE` tags in the playlist, chapters in the MP4.
    public let stageEvents: [StageEvent]

    public init(capture: Capture, plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent] = []) {
        self.stageEvents = stageEvents
        self.capture = capture
        self.plan = plan
        self.settings = settings
    }

    /// What a finished composition lost along the way.
    public struct Result: Sendable {
        public var frames: Int
        public var audioSamples: Int
        /// Media file to the reason it could not be read.
        public var lostMedia: [String: String]
        /// What could not be done as asked, the composition going on without it (names without a font).
        public var warnings: [String]
        /// Every stretch in which a subscribed track was not shown or heard as planned.
        public var losses: [MediaLoss]
        /// Video frames decoded per layer file: only layers some tile showed appear.
        public var decodedFrames: [String: Int]
        /// Where the CPU went: the decoding thread by stage, and the encoders.
        public var cpuSeconds: CPUSeconds
        /// The loudness pass's gains and the output's measured loudness.
        public var loudness: LoudnessReport
        /// Where a tile showed another layer than planned, because the planned one had no picture there.
        public var layerStandIns: [LayerStandIn]
    }

    /// Total output frames: the session's duration at the plan's frame rate, rounded up.
    public var frameCount: Int { MediaTime.frameCount(ms: plan.durationMs, fps: plan.fps) }

    /// Writes `index.m3u8` and its segments into `hlsDirectory` (which must exist).
    /// `progress` is called about twice a second; `shouldStop` is polled once per frame.
    /// With a ladder in the settings, `index.m3u8` is a master playlist over one folder per rendition
    /// and one for the audio (see ``CompositionOutputs``).
    /// With `mp4`, the same packets also go into that file: one encode, two containers.
    /// With `pictures`, thumbnails, the poster and the WebVTT track go into that folder.
    public func run(hlsDirectory: URL, mp4: URL? = nil, pictures: URL? = nil, progress: (ComposeProgress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Result {
        let cpuStart = CurrentThread.processCPUSeconds
        let fps = plan.fps
        let frames = 0..<(plan.intervals.isEmpty ? 0 : frameCount)
        let encoders = try CanvasEncoders(plan: plan, settings: settings, mp4: mp4 != nil, pictures: pictures, frames: frames)
        // The rendition threads are waited for on every way out, before anything they use goes.
        defer { encoders.stop() }
        let outputs = try CompositionOutputs(plan: plan, settings: settings, stageEvents: stageEvents,
                                             video: encoders.renditions.map(VideoStream.init), hlsDirectory: hlsDirectory, mp4: mp4)
        for (rendition, routes) in zip(encoders.renditions, outputs.videoRoutes) { rendition.routes = routes }

        // The audio-only loudness pass runs first: the gains must be known before the first block is mixed.
        let levels = try settings.loudnessLUFS.map {
            try LoudnessAnalysis(capture: capture, plan: plan, targetLUFS: $0).run(shouldStop: shouldStop)
        }
        let loudnessCPU = CurrentThread.processCPUSeconds - cpuStart
        let producer = try FrameProducer(capture: capture, plan: plan, frames: frames, levels: levels)
        let started = Date()
        var lastReport = started
        var samplesDone = 0
        let free = producer.free
        try producer.run(shouldStop: shouldStop) { frame in
            try encoders.take(frame.canvas, index: frame.index) { free.put($0) }
            try outputs.audio.send(planar: frame.audio)
            samplesDone += frame.audio[0].count

            let now = Date()
            if now.timeIntervalSince(lastReport) >= 0.5 {
                lastReport = now
                progress(ComposeProgress(composedSeconds: Double(frame.index) / Double(fps),
                                         totalSeconds: MediaTime.seconds(ms: plan.durationMs),
                                         elapsedSeconds: now.timeIntervalSince(started)))
            }
        }
        try encoders.finish()
        try outputs.finish()
        progress(ComposeProgress(composedSeconds: MediaTime.seconds(ms: plan.durationMs),
                                 totalSeconds: MediaTime.seconds(ms: plan.durationMs),
                                 elapsedSeconds: Date().timeIntervalSince(started)))
        return Result(frames: frameCount, audioSamples: samplesDone,
                      lostMedia: producer.lostMedia, warnings: producer.warnings, losses: producer.ledger.losses(in: plan), decodedFrames: producer.decodedFrames,
                      cpuSeconds: CPUSeconds(total: CurrentThread.processCPUSeconds - cpuStart, clock: producer.clock,
                                             loudnessPass: loudnessCPU),
                      loudness: LoudnessReport(levels: levels, audio: producer.audio),
                      layerStandIns: producer.layerStandIns)
    }
}
