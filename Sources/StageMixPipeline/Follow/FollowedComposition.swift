public import Foundation
public import StageMixCapture
public import StageMixOptions
public import StageMixPublishing
import StageMixPlan
import StageMixTime

/// `compose --follow` (docs/follow.md): the output is written while the session is recorded. One
/// thread follows the recording (``FollowedChunks``), encoding each chunk of video as soon as
/// `completeToMs` has passed its end; this one joins each chunk as soon as it is made into the
/// staging folder's containers (``ChunkJoiner``), the audio mixed beside it with the loudness set
/// from what has been heard so far (``CausalLoudness``). When `session.ended` arrives the follower
/// plans the whole session as a whole run does and makes the chunks left; the join ends them, and
/// the output is published whole. The work left at the end is the last chunk or two and the
/// reports, whatever the session's length.
///
/// Below `completeToMs` the events are final, so a chunk's slice of plan is the whole session's
/// unless the layout looks at the whole session (a speaker turn heard later, a grid sized by the
/// most participants ever on stage): then the chunks whose slices moved are encoded again and the
/// join starts over from the first chunk, and the output is still the whole run's.
public struct FollowedComposition: Sendable {
    public let capture: any CaptureSource
    public let options: ComposeOptions
    public let runner: any ChunkRunner
    /// Where the chunks are encoded (beside the output, removed by the caller).
    public let work: URL
    public let timeoutSeconds: Double
    /// `--live-out`: the EVENT playlist of the segments joined so far.
    public let liveOut: LiveOutput?

    public init(capture: any CaptureSource, options: ComposeOptions, runner: any ChunkRunner, work: URL, timeoutSeconds: Double,
                liveOut: LiveOutput? = nil) {
        self.liveOut = liveOut
        self.capture = capture
        self.options = options
        self.runner = runner
        self.work = work
        self.timeoutSeconds = timeoutSeconds
    }

    /// What the run did, besides its report: when the session ended, and how many chunks were kept.
    public struct Outcome: Sendable {
        public var report: ComposeRun.Report
        public var sessionEnded: Date
        public var chunks: Int
        public var kept: Int
        public var maxLagMs: Int
        public var restarted: Bool
        /// Chunks an earlier attempt made (its worker died), carried on from.
        public var takenOver: Int
    }

    /// `progress` is given the recorded and the composed positions, in ms of session time, from the following thread.
    public func run(publishingWith publisher: any OutputPublishing, progress: @escaping @Sendable (Int, Int) -> Void,
                    shouldStop: @escaping @Sendable () -> Bool) throws -> Outcome {
        let board = FollowBoard()
        let followerDone = DispatchSemaphore(value: 0)
        let started = Date()
        let cpuStart = CurrentThread.processCPUSeconds
        let outcome = try publisher.publishStaged { staging in
            let follower = Thread { [self] in
                CurrentThread.setName("stagemix-follow")
                defer { followerDone.signal() }
                follow(board: board, progress: progress, shouldStop: { shouldStop() || board.shouldStop })
            }
            follower.start()
            // The follower is stopped and waited for on every way out, before the staging and work folders go.
            defer {
                board.stop()
                followerDone.wait()
            }
            let settings = ComposeSettings(options)
            let hls = staging.appendingPathComponent(OutputFiles.hls)
            let mp4 = settings.mp4 ? staging.appendingPathComponent(OutputFiles.mp4) : nil
            try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: false)
            var joiner: ChunkJoiner?
            var session: FollowedSession?
            var ended: Date?
            var next = 0
            while session.map({ next < $0.chunks }) ?? true {
                switch try board.next(shouldStop: shouldStop) {
                case .chunk(let job, let result, let plan, let capture, let takesPoster):
                    guard job.index == next else { throw ChunkRunError("the follower handed chunk \(job.index) where \(next) was due") }
                    if let joiner {
                        if joiner.plan != plan { joiner.extend(to: plan, capture: capture) }
                    } else {
                        let levels: MixLevels = try settings.loudnessLUFS.map { .causal(try CausalLoudness(targetLUFS: $0)) } ?? .none
                        // Made after the session ended (or started over), the containers get the stage's events at once.
                        let events = session.map { StageEvent.of($0.document.timeline) } ?? []
                        joiner = try ChunkJoiner(capture: capture, plan: plan, settings: settings, stageEvents: events, levels: levels,
                                                 hlsDirectory: hls, mp4: mp4, sessionEnded: session != nil)
                    }
                    try joiner?.join(job, result: result, removesVideo: false)
                    try Self.takePictures(of: job, into: staging, poster: takesPoster)
                    // A join started over goes back over segments the live playlist has: it waits for the whole output.
                    if let joiner, session?.restarts != true {
                        liveOut?.follow(hls, startedAt: plan.startedAt, master: try? joiner.masterPlaylist())
                    }
                    next += 1
                case .ended(let finished):
                    ended = finished.log.endedAt
                    session = finished
                    if finished.restarts {
                        joiner = nil
                        next = 0
                        try Self.clear(staging: staging, hls: hls, mp4: mp4)
                    } else if let joiner {
                        joiner.extend(to: finished.document.plan, capture: finished.capture)
                        try joiner.sessionEnded(stageEvents: StageEvent.of(finished.document.timeline))
                    }
                }
            }
            guard let session, let ended else { throw CancellationError() }
            try joiner?.finish()
            let master = hls.appendingPathComponent(OutputFiles.playlist)
            liveOut?.follow(hls, startedAt: nil, master: options.ladder?.isEmpty == false ? try? String(contentsOf: master, encoding: .utf8) : nil,
                            ending: true)
            if let poster = session.poster {
                let into = staging.appendingPathComponent(OutputFiles.poster)
                try? FileManager.default.removeItem(at: into)
                try FileManager.default.copyItem(at: poster, to: into)
            }
            let plan = session.document.plan
            let frameCount = plan.intervals.isEmpty ? 0 : MediaTime.frameCount(ms: plan.durationMs, fps: plan.fps)
            let result: CompositionPipeline.Result
            let chunking: ChunkingReport?
            if let joiner {
                var loudness = LoudnessReport(levels: nil, audio: joiner.mixedAudio)
                if case .causal(let causal) = joiner.mixedAudio?.levels {
                    loudness.targetLUFS = causal.targetLUFS
                    loudness.trackGainDB = causal.trackGainDB
                    loudness.masterGainDB = causal.masterGainDB
                    loudness.trackLUFS = causal.trackLUFS
                }
                (result, chunking) = ChunkedComposition.outcome(of: joiner, plan: plan, frameCount: frameCount,
                                                                seconds: options.chunkSeconds ?? settings.segmentSeconds, jobs: 1,
                                                                loudness: loudness, cpuStart: cpuStart, loudnessCPU: 0)
            } else {
                // A session without frames has nothing to cut: it is written as a whole run writes it.
                let pipeline = CompositionPipeline(capture: session.capture, plan: plan, settings: settings,
                                                   stageEvents: StageEvent.of(session.document.timeline))
                result = try pipeline.run(hlsDirectory: hls, mp4: mp4, pictures: staging, progress: { _ in }, shouldStop: shouldStop)
                chunking = nil
            }
            var run = ComposeRun(capture: session.capture, document: session.document, settings: settings)
            run.followed = FollowReport(chunksWhileRecorded: session.kept, chunks: session.chunks,
                                        maxLagSeconds: Double(session.log.maxLagMs) / 1000, versionsRead: session.log.versions,
                                        chunksTakenOver: session.log.takenOver,
                                        loudnessMethod: settings.loudnessLUFS == nil ? FollowReport.noLoudness : FollowReport.causalLoudness)
            let report = try run.writeReports(result: result, chunking: chunking, missing: CaptureReader.missingMedia(in: session.capture),
                                              in: staging, started: started)
            return Outcome(report: report, sessionEnded: ended, chunks: session.chunks, kept: session.kept,
                           maxLagMs: session.log.maxLagMs, restarted: session.restarts, takenOver: session.log.takenOver)
        }
        // The live playlist says it has ended only once the output is there.
        liveOut?.published()
        return outcome
    }

    /// The following thread: chunks as the session is recorded, then the session as a whole run plans
    /// it, and the chunks left; its failure goes to the join through the board.
    private func follow(board: FollowBoard, progress: @escaping @Sendable (Int, Int) -> Void, shouldStop: @escaping @Sendable () -> Bool) {
        do {
            let follower = FollowedChunks(capture: capture, options: options, runner: runner, work: work, timeoutSeconds: timeoutSeconds)
            var handed = 0
            let log = try follower.run(shouldStop: shouldStop, progress: progress) { job, plan, known in
                board.post(.chunk(job, try ChunkResult.read(from: job.resultFile), plan: plan, capture: known, takesPoster: false))
                handed += 1
            }
            if shouldStop() { throw CancellationError() }
            try finish(log: log, handed: handed, listening: follower.listening, board: board, shouldStop: shouldStop)
        } catch {
            board.fail(error)
        }
    }

    /// The end: the whole session planned as a whole run plans it (a speaker layout's pass heard to the
    /// end); every chunk whose slice of that plan differs from the one it was made from, or that
    /// lost media (the end of a file still being written taken for its end), is encoded again.
    private func finish(log: FollowedChunks.Log, handed: Int, listening: SpeakerListening, board: FollowBoard,
                        shouldStop: @escaping @Sendable () -> Bool) throws {
        // A speaker layout's pass hears on from where following left it, to the end: a whole run's speakers.
        let (finished, _, document) = try CompositionInput.plan(capture: capture, options: options, speakers: { capture, timeline in
            try listening.speakers(capture: capture, timeline: timeline, heardToMs: timeline.durationMs, growing: false, shouldStop: shouldStop)
        })
        try finished.checkStorage()
        let plan = document.plan
        let ranges = ChunkRun.ranges(plan: plan, options: options)
        var again = Set<Int>()
        for (index, frames) in ranges.enumerated() {
            let folder = ChunkRun.chunkFolder(index, in: work)
            let clean = (try? ChunkResult.read(from: ChunkJob.resultFile(index, in: folder))).map { $0.lostMedia.isEmpty && $0.lossNotes.isEmpty } ?? false
            var made = log.encoded[index]
            var now = ChunkPlanSlice(plan: plan, frames: frames)
            // The poster is the whole session's choice: taken apart, below.
            made?.posterFrame = nil
            now.posterFrame = nil
            if clean && log.ranges[index] == frames && made == now { continue }
            // Not made while following (a worker that died after the session ended left it): maybe made earlier.
            if log.encoded[index] == nil, FollowedChunks.madeEarlier(index, frames: frames, plan: plan, options: options, work: work) != nil { continue }
            again.insert(index)
        }
        // A chunk handed to the join whose slice moved, or beyond the session's end: the join starts over.
        let restarts = again.contains { $0 < handed } || handed > ranges.count
        let posterFrame = MediaTime.frame(atMs: ThumbnailWriter.posterTimeMs(plan), fps: plan.fps)
        let posterChunk = ranges.firstIndex { $0.contains(posterFrame) }
        var poster: URL?
        if options.thumbnails != nil, let posterChunk, !again.contains(posterChunk), !plan.intervals.isEmpty {
            // The chunk holding the poster was made before the poster's moment was known: one frame, encoded for its picture.
            let folder = work.appendingPathComponent("poster")
            let job = try FollowedChunks.encode(posterChunk, frames: posterFrame..<(posterFrame + 1), plan: plan, capture: capture.location,
                                                options: options, runner: runner, final: folder, shouldStop: shouldStop)
            poster = URL(fileURLWithPath: job.pictures ?? folder.path).appendingPathComponent(OutputFiles.poster)
        }
        let session = FollowedSession(capture: finished, document: document, chunks: ranges.count, restarts: restarts,
                                      kept: ranges.count - again.count, log: log, poster: poster)
        board.post(.ended(session))
        for (index, frames) in ranges.enumerated() where index >= (restarts ? 0 : handed) {
            if shouldStop() { throw CancellationError() }
            let job: ChunkJob
            if again.contains(index) {
                try? FileManager.default.removeItem(at: ChunkRun.chunkFolder(index, in: work))
                job = try FollowedChunks.encode(index, frames: frames, plan: plan, capture: capture.location, options: options,
                                                runner: runner, work: work, shouldStop: shouldStop)
            } else {
                job = try ChunkJob.read(from: ChunkJob.jobFile(index, in: ChunkRun.chunkFolder(index, in: work)))
            }
            board.post(.chunk(job, try ChunkResult.read(from: job.resultFile), plan: plan, capture: finished,
                              takesPoster: index == posterChunk && again.contains(index)))
        }
    }

    /// A joined chunk's pictures into the staging folder: its thumbnails, the thumbnail track (written by
    /// the last chunk only), and the poster when it holds the whole session's.
    private static func takePictures(of job: ChunkJob, into staging: URL, poster: Bool) throws {
        let fm = FileManager.default
        let folder = URL(fileURLWithPath: job.work)
        for name in [OutputFiles.thumbnailTrack] + (poster ? [OutputFiles.poster] : [])
        where fm.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try? fm.removeItem(at: staging.appendingPathComponent(name))
            try fm.copyItem(at: folder.appendingPathComponent(name), to: staging.appendingPathComponent(name))
        }
        let thumbnails = folder.appendingPathComponent(OutputFiles.thumbnails)
        guard let names = try? fm.contentsOfDirectory(atPath: thumbnails.path), !names.isEmpty else { return }
        let into = staging.appendingPathComponent(OutputFiles.thumbnails)
        try fm.createDirectory(at: into, withIntermediateDirectories: true)
        for name in names.sorted() {
            try? fm.removeItem(at: into.appendingPathComponent(name))
            try fm.copyItem(at: thumbnails.appendingPathComponent(name), to: into.appendingPathComponent(name))
        }
    }

    /// The join starts over: what it wrote into the staging folder goes.
    private static func clear(staging: URL, hls: URL, mp4: URL?) throws {
        let fm = FileManager.default
        for url in [hls, staging.appendingPathComponent(OutputFiles.thumbnails), staging.appendingPathComponent(OutputFiles.thumbnailTrack),
                    staging.appendingPathComponent(OutputFiles.poster)] + (mp4.map { [$0] } ?? []) {
            try? fm.removeItem(at: url)
        }
        try fm.createDirectory(at: hls, withIntermediateDirectories: false)
    }
}
