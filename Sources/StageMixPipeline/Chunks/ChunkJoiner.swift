import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The join of a chunked run (docs/chunks.md): chunks taken in order, each one's packets restamped
/// into the containers a whole run writes (``CompositionOutputs``, opened with the first chunk),
/// with the session's audio beside them (``JoinedAudio``): its packets, encoded by the audio work, put
/// after the frame each came out after in the audio work's encoder, or mixed and AAC-encoded here
/// frame by frame (a followed run). Either way every container gets what a whole run gives it, in
/// the same order. A chunked run joins chunks as they finish; a followed run (`compose --follow`) joins each as soon as it is made,
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
    let audio: JoinedAudio
    let ledger: LossLedger
    var clock = StageClock()
    private(set) var results: [ChunkResult] = []
    private(set) var samples = 0

    /// The join of a followed run: the audio mixed here with `levels`.
    convenience init(capture: Capture, plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent], levels: MixLevels,
                     hlsDirectory: URL, mp4: URL?, sessionEnded: Bool = true) throws {
        let ledger = LossLedger()
        let mixed = try FrameAudio(capture: capture, plan: plan, ledger: ledger, levels: levels)
        mixed.growing = !sessionEnded
        try self.init(plan: plan, settings: settings, stageEvents: stageEvents, audio: .mixed(mixed), ledger: ledger,
                      hlsDirectory: hlsDirectory, mp4: mp4, sessionEnded: sessionEnded)
    }

    init(plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent], audio: JoinedAudio, ledger: LossLedger = LossLedger(),
         hlsDirectory: URL, mp4: URL?, sessionEnded: Bool = true) throws {
        self.plan = plan
        self.audio = audio
        self.ledger = ledger
        ended = sessionEnded
        self.settings = settings
        self.stageEvents = stageEvents
        self.hlsDirectory = hlsDirectory
        self.mp4 = mp4
        renditions = settings.renditions.isEmpty
            ? [Rendition(width: plan.canvas.width, height: plan.canvas.height, rate: settings.videoRate)] : settings.renditions
        fps = renditions.map { $0.fps ?? plan.fps }
        intervals = FrameIntervals(plan: plan)
        if case .encoded(_, let result) = audio {
            samples = result.samples
            for note in result.lossNotes { ledger.note(note) }
        }
    }

    /// The audio mixed here (a followed run's), nil when it was encoded apart.
    var mixedAudio: FrameAudio? {
        if case .mixed(let audio) = audio { return audio }
        return nil
    }

    /// Media the audio could not read, with why.
    var audioLostMedia: [String: String] {
        switch audio {
        case .mixed(let audio): audio.lostMedia
        case .encoded(_, let result): result.lostMedia
        }
    }

    /// A followed run's plan of the session known further: it says what the last one said up to where
    /// that one ended (below `completeToMs` the events are final), and goes on.
    func extend(to plan: CompositionPlan, capture: Capture) {
        self.plan = plan
        intervals = FrameIntervals(plan: plan)
        mixedAudio?.extend(to: plan, capture: capture)
    }

    /// A followed run's session has ended: see ``CompositionOutputs/sessionEnded(durationMs:stageEvents:)``.
    func sessionEnded(stageEvents: [StageEvent]) throws {
        ended = true
        mixedAudio?.growing = false
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
            switch audio {
            case .mixed(let audio):
                clock.charge(.other)
                let planes = audio.samples(endingFrame: n, interval: intervals.interval(atFrame: n))
                clock.charge(.audioDecodeMix)
                try outputs.audio.send(planar: planes)
                samples += planes[0].count
            case .encoded(let packets, _):
                try packets.write(upToFrame: Int64(n), into: outputs.audio)
            }
        }
        for reader in readers { try reader.checkEnd() }
        if removesVideo {
            for r in renditions.indices { try? FileManager.default.removeItem(at: job.videoFile(rendition: r)) }
        }
        results.append(result)
    }

    /// A ladder's master playlist as it stands (nil for one rendition, or before the first chunk).
    func masterPlaylist() throws -> String? { try outputs?.masterPlaylist() }

    /// After the last chunk: the audio's last packets (flushed here, or the audio work's), and every container closed.
    func finish() throws {
        if case .encoded(let packets, let result) = audio, let outputs {
            try packets.write(upToFrame: AudioPacketFile.atEnd, into: outputs.audio)
            try packets.checkEnd(expected: result.packets)
        }
        try outputs?.finish()
    }
}
