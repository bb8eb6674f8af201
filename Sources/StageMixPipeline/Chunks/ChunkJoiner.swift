import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The join of a chunked run (docs/chunks.md): chunks taken in order, each one's packets restamped
/// into the containers a whole run writes (``CompositionOutputs``, opened with the first chunk),
/// with the session's audio mixed and AAC-encoded frame by frame beside them. A chunked run joins
/// chunks as they finish; a followed run (`compose --follow`) joins each as soon as it is made,
/// while the session is still recorded, its plan growing with the session (``extend(to:)``).
final class ChunkJoiner {
    private(set) var plan: CompositionPlan
    private let settings: ComposeSettings
    private let stageEvents: [StageEvent]
    private let hlsDirectory: URL
    private let mp4: URL?
    /// Whether the session's end is known: false for a followed run's join started while it was recorded.
    private var ended: Bool
    private let renditions: [Rendition]
    private let fps: [Int]
    private var outputs: CompositionOutputs?
    private var intervals: FrameIntervals
    let audio: FrameAudio
    let ledger = LossLedger()
    var clock = StageClock()
    private(set) var results: [ChunkResult] = []
    private(set) var samples = 0

    init(capture: Capture, plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent], levels: MixLevels,
         hlsDirectory: URL, mp4: URL?, sessionEnded: Bool = true) throws {
        self.plan = plan
        ended = sessionEnded
        self.settings = settings
        self.stageEvents = stageEvents
        self.hlsDirectory = hlsDirectory
        self.mp4 = mp4
        audio = try FrameAudio(capture: capture, plan: plan, ledger: ledger, levels: levels)
        renditions = settings.renditions.isEmpty
            ? [Rendition(width: plan.canvas.width, height: plan.canvas.height, rate: settings.videoRate)] : settings.renditions
        fps = renditions.map { $0.fps ?? plan.fps }
        intervals = FrameIntervals(plan: plan)
        audio.growing = !sessionEnded
    }

    /// A followed run's plan of the session known further: it says what the last one said up to where
    /// that one ended (below `completeToMs` the events are final), and goes on.
    func extend(to plan: CompositionPlan, capture: Capture) {
        self.plan = plan
        intervals = FrameIntervals(plan: plan)
        audio.extend(to: plan, capture: capture)
    }

    /// A followed run's session has ended: see ``CompositionOutputs/sessionEnded(durationMs:stageEvents:)``.
    func sessionEnded(stageEvents: [StageEvent]) throws {
        ended = true
        audio.growing = false
        try outputs?.sessionEnded(durationMs: plan.durationMs, stageEvents: stageEvents)
    }

    /// Joins chunk `job` (encoded, with `result`): every rendition's packets, then the audio of its frames.
    /// `removesVideo`: its video files go once read (a long session's chunks need not all sit on the disk).
    func join(_ job: ChunkJob, result: ChunkResult, removesVideo: Bool) throws {
        clock.charge(.other)
        let readers = try renditions.indices.map { r throws(MediaError) in
            try ChunkVideoReader(url: job.videoFile(rendition: r), firstFrame: job.from / (plan.fps / fps[r]), fps: fps[r])
        }
        if outputs == nil {
            outputs = try CompositionOutputs(
                plan: plan, settings: settings, stageEvents: stageEvents,
                video: zip(renditions, readers).enumerated().map { r, pair in
                    VideoStream(rendition: pair.0, fps: fps[r], origin: .chunks(pair.1.stream))
                },
                hlsDirectory: hlsDirectory, mp4: mp4, sessionEnded: ended)
        }
        guard let outputs else { return }
        for n in job.frames {
            for r in readers.indices where n % (plan.fps / fps[r]) == 0 {
                let packet = try readers[r].next(decodeIndex: n / (plan.fps / fps[r]), delay: result.reorderDelayFrames[r])
                try outputs.videoRoutes[r].write(packet)
            }
            clock.charge(.other)
            let planes = audio.samples(endingFrame: n, interval: intervals.interval(atFrame: n))
            clock.charge(.audioDecodeMix)
            try outputs.audio.send(planar: planes)
            samples += planes[0].count
        }
        for reader in readers { try reader.checkEnd() }
        if removesVideo {
            for r in renditions.indices { try? FileManager.default.removeItem(at: job.videoFile(rendition: r)) }
        }
        results.append(result)
    }

    /// A ladder's master playlist as it stands (nil for one rendition, or before the first chunk).
    func masterPlaylist() throws -> String? { try outputs?.masterPlaylist() }

    /// After the last chunk: flushes the audio and closes every container.
    func finish() throws {
        try outputs?.finish()
    }
}
