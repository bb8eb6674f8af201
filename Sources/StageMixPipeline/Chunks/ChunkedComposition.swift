import Foundation
import StageMixCapture
import StageMixPlan
import StageMixOptions
import StageMixMedia
import StageMixTime
import StageMixPublishing

/// A composition whose video is encoded in chunks side by side and joined into the output a whole
/// run writes (docs/chunks.md). Chunk `k` covers `--chunk-seconds` of output frames from `k` times
/// that, a whole number of segments, so it starts where a segment does; up to `--jobs` chunks run
/// at once through the runner, beside the session's audio (loudness pass, mix, AAC: work of its own,
/// run as a chunk is). This process joins the chunks in order as they finish: their packets restamped
/// into the same containers, with the audio work's AAC packets, as a whole run has them.
struct ChunkedComposition {
    let capture: Capture
    let plan: CompositionPlan
    let settings: ComposeSettings
    let stageEvents: [StageEvent]
    let chunking: Chunking

    /// Output frames of each chunk, in order.
    static func ranges(frameCount: Int, plan: CompositionPlan, settings: ComposeSettings, chunkSeconds: Double) -> [Range<Int>] {
        let keyframeEvery = RenditionSpec.keyframeInterval(canvasFps: plan.fps, segmentSeconds: settings.segmentSeconds)
        let perChunk = keyframeEvery * max(1, Int((chunkSeconds / settings.segmentSeconds).rounded()))
        return stride(from: 0, to: frameCount, by: perChunk).map { $0..<min($0 + perChunk, frameCount) }
    }

    /// Writes the output as ``CompositionPipeline/run(hlsDirectory:mp4:pictures:progress:shouldStop:)``
    /// does; `work` (inside the staging folder) holds the chunks' jobs, files and results.
    func run(hlsDirectory: URL, mp4: URL?, pictures: URL?, work: URL, progress: (ComposeProgress) -> Void,
             shouldStop: () -> Bool) throws -> (CompositionPipeline.Result, ChunkingReport) {
        let cpuStart = CurrentThread.processCPUSeconds
        let started = Date()
        let frameCount = plan.intervals.isEmpty ? 0 : MediaTime.frameCount(ms: plan.durationMs, fps: plan.fps)
        let ranges = Self.ranges(frameCount: frameCount, plan: plan, settings: settings, chunkSeconds: chunking.seconds)
        let location = capture.directory.isFileURL ? capture.directory.path : capture.directory.absoluteString
        let jobs = ranges.enumerated().map { index, frames in
            let folder = chunking.encodedIn.map { ChunkRun.chunkFolder(index, in: $0) }
            return ChunkJob(index: index, capture: location, options: chunking.options, plan: plan, from: frames.lowerBound,
                            to: frames.upperBound, work: folder?.path ?? work.path, pictures: folder?.path ?? pictures?.path)
        }
        let board = ChunkBoard(count: jobs.count)
        // The session's audio: work of its own beside the chunks (on the queue, in the work's `audio/`).
        let audioJob = chunking.audioApart
            ? SessionAudioJob(capture: location, options: chunking.options, plan: plan,
                              work: (chunking.encodedIn.map(ChunkRun.audioFolder(in:)) ?? work).path)
            : nil
        // On the queue the chunks are encoded by workers: one thread collects them as they land.
        let encoded = chunking.encodedIn
        let runner = chunking.runner
        var threads: [@Sendable () -> Void] = []
        if let audioJob, encoded == nil {
            // Started first: the join needs it from its first chunk on.
            threads.append {
                board.finishAudio(with: Result {
                    try audioJob.write(to: audioJob.jobFile)
                    try runner.run(audioJob: audioJob.jobFile, shouldStop: { board.shouldStop })
                    return try SessionAudioResult.read(from: audioJob.resultFile)
                })
            }
        }
        for _ in 0..<(encoded == nil ? min(chunking.jobs, jobs.count) : 1) {
            threads.append {
                if let encoded {
                    Self.collect(jobs, audio: audioJob, encodedIn: encoded, pictures: pictures, board: board)
                    return
                }
                while let index = board.take() {
                    let job = jobs[index]
                    board.finish(index, with: Result {
                        try job.write(to: job.jobFile)
                        try runner.run(job: job.jobFile, shouldStop: { board.shouldStop })
                        return try ChunkResult.read(from: job.resultFile)
                    })
                }
            }
        }
        let workers = threads.map { body in
            let done = DispatchSemaphore(value: 0)
            Thread {
                CurrentThread.setName("stagemix-chunks")
                defer { done.signal() }
                body()
            }.start()
            return done
        }
        // Every chunk is stopped and waited for on every way out, before the work folder goes.
        defer {
            board.stop()
            for done in workers { done.wait() }
        }

        // While the chunks encode, unless the audio is work of its own: the loudness pass, whose gains
        // the audio mix needs from its first block.
        let levels: LoudnessAnalysis.Result?
        do {
            levels = try audioJob != nil ? nil : settings.loudnessLUFS.map {
                try LoudnessAnalysis(capture: capture, plan: plan, targetLUFS: $0).run(shouldStop: { shouldStop() || board.shouldStop })
            }
        } catch is CancellationError {
            // Stopped by a chunk that failed: what failed is the run's error.
            throw board.firstFailure ?? CancellationError()
        }
        let loudnessCPU = CurrentThread.processCPUSeconds - cpuStart
        let joiner = try join(jobs: jobs, board: board, audio: audioJob, levels: levels, hlsDirectory: hlsDirectory, mp4: mp4,
                              started: started, progress: progress, shouldStop: shouldStop)
        let loudness: LoudnessReport
        if case .encoded(_, let result) = joiner.audio {
            loudness = result.loudness
        } else {
            loudness = LoudnessReport(levels: levels, audio: joiner.mixedAudio)
        }
        return Self.outcome(of: joiner, plan: plan, frameCount: frameCount, seconds: chunking.seconds, jobs: chunking.jobs,
                            loudness: loudness, cpuStart: cpuStart, loudnessCPU: loudnessCPU)
    }

    /// What a join of chunks made, as a whole run's result says it, and the chunks' own report: the
    /// chunks' CPU added to this process's (since `cpuStart`), their decoded frames, losses and stand-ins merged.
    static func outcome(of joiner: ChunkJoiner, plan: CompositionPlan, frameCount: Int, seconds: Double, jobs: Int,
                        loudness: LoudnessReport, cpuStart: Double, loudnessCPU: Double) -> (CompositionPipeline.Result, ChunkingReport) {
        let results = joiner.results
        var clock = joiner.clock
        clock.charge(.other)
        let joinCPU = CurrentThread.processCPUSeconds - cpuStart
        var cpu = results.map(\.cpuSeconds).reduce(CPUSeconds(total: joinCPU, clock: clock, loudnessPass: loudnessCPU), +)
        var audio: ChunkingReport.Audio?
        if case .encoded(_, let result) = joiner.audio {
            cpu = cpu + result.cpuSeconds
            audio = .init(cpuSeconds: (result.cpuSeconds.total * 1000).rounded() / 1000, wallSeconds: (result.wallSeconds * 1000).rounded() / 1000)
        }
        var decoded: [String: Int] = [:]
        var lost: [String: String] = [:]
        var warnings: [String] = []
        for result in results {
            decoded.merge(result.decodedFrames, uniquingKeysWith: +)
            lost.merge(result.lostMedia) { a, _ in a }
            warnings += result.warnings.filter { !warnings.contains($0) }
        }
        lost.merge(joiner.audioLostMedia) { a, _ in a }
        // The chunks' notes with the audio's, merged as one run's: a stretch across a boundary is one.
        for note in results.flatMap(\.lossNotes) { joiner.ledger.note(note) }
        let standIns = LayerStandInLog(frameMs: 1000 / max(1, plan.fps))
        for stretch in results.flatMap(\.layerStandIns) { standIns.record(stretch) }
        let fps = Double(plan.fps)
        let report = ChunkingReport(
            chunkSeconds: seconds, jobs: jobs,
            chunks: results.map {
                .init(index: $0.index, fromSeconds: Double($0.from) / fps, toSeconds: Double($0.to) / fps,
                      cpuSeconds: ($0.cpuSeconds.total * 1000).rounded() / 1000, wallSeconds: ($0.wallSeconds * 1000).rounded() / 1000)
            },
            audio: audio, joinCPUSeconds: (joinCPU * 1000).rounded() / 1000)
        let result = CompositionPipeline.Result(
            frames: frameCount, audioSamples: joiner.samples, lostMedia: lost, warnings: warnings,
            losses: joiner.ledger.losses(in: plan),
            decodedFrames: decoded, cpuSeconds: cpu, loudness: loudness,
            layerStandIns: standIns.stretches)
        return (result, report)
    }

    /// The join of chunks encoded by workers: the session's audio first (its packets are needed from the
    /// first frame on), then each chunk, in order, once its folder is in place (the
    /// worker that encoded it renames it there whole), has its result read (one of another range is an
    /// error naming it) and its pictures (thumbnails, the poster, the thumbnail track) copied into the
    /// staging folder; the video is read as the join goes. Waits as long as the run goes on: a chunk
    /// that fails for good fails the composition, and the worker stops this join.
    private static func collect(_ jobs: [ChunkJob], audio: SessionAudioJob?, encodedIn work: URL, pictures: URL?, board: ChunkBoard) {
        if let audio {
            while !FileManager.default.fileExists(atPath: audio.resultFile.path) {
                if board.shouldStop { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            board.finishAudio(with: Result {
                do {
                    return try SessionAudioResult.read(from: audio.resultFile)
                } catch {
                    throw ChunkRunError("the session's audio has no result in \(work.path): \(error)")
                }
            })
        }
        for job in jobs {
            while !FileManager.default.fileExists(atPath: job.resultFile.path) {
                if board.shouldStop { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            board.finish(job.index, with: Result { try collect(job, encodedIn: work, pictures: pictures) })
        }
    }

    private static func collect(_ job: ChunkJob, encodedIn work: URL, pictures: URL?) throws -> ChunkResult {
        let fm = FileManager.default
        let result: ChunkResult
        do {
            result = try ChunkResult.read(from: job.resultFile)
        } catch {
            throw ChunkRunError("chunk \(job.index) has no result in \(work.path): \(error)")
        }
        guard result.index == job.index, result.from == job.from, result.to == job.to else {
            throw ChunkRunError("chunk \(job.index)'s result in \(work.path) is of frames \(result.from)..<\(result.to), not \(job.from)..<\(job.to)")
        }
        guard let pictures else { return result }
        let folder = URL(fileURLWithPath: job.work)
        for name in [OutputFiles.poster, OutputFiles.thumbnailTrack] where fm.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try? fm.removeItem(at: pictures.appendingPathComponent(name))
            try fm.copyItem(at: folder.appendingPathComponent(name), to: pictures.appendingPathComponent(name))
        }
        let thumbnails = folder.appendingPathComponent(OutputFiles.thumbnails)
        guard let names = try? fm.contentsOfDirectory(atPath: thumbnails.path) else { return result }
        let into = pictures.appendingPathComponent(OutputFiles.thumbnails)
        try fm.createDirectory(at: into, withIntermediateDirectories: true)
        for name in names.sorted() {
            try? fm.removeItem(at: into.appendingPathComponent(name))
            try fm.copyItem(at: thumbnails.appendingPathComponent(name), to: into.appendingPathComponent(name))
        }
        return result
    }

    /// Joins the chunks in order as each is done (``ChunkJoiner``).
    /// The audio is the audio work's packets, once it is done, or (`audio` nil) mixed here with `levels`.
    private func join(jobs: [ChunkJob], board: ChunkBoard, audio: SessionAudioJob?, levels: LoudnessAnalysis.Result?, hlsDirectory: URL,
                      mp4: URL?, started: Date, progress: (ComposeProgress) -> Void, shouldStop: () -> Bool) throws -> ChunkJoiner {
        let joiner: ChunkJoiner
        if let audio {
            let result = try board.waitForAudio(shouldStop: shouldStop)
            joiner = try ChunkJoiner(plan: plan, settings: settings, stageEvents: stageEvents,
                                     audio: .encoded(try AudioPacketReader(url: audio.packetsFile), result), hlsDirectory: hlsDirectory, mp4: mp4)
        } else {
            joiner = try ChunkJoiner(capture: capture, plan: plan, settings: settings, stageEvents: stageEvents,
                                     levels: MixLevels(levels), hlsDirectory: hlsDirectory, mp4: mp4)
        }
        let total = MediaTime.seconds(ms: plan.durationMs)
        for job in jobs {
            let result = try board.wait(for: job.index, shouldStop: shouldStop)
            // On the queue the chunks stay until the composition is published, for a join that fails to be tried again.
            try joiner.join(job, result: result, removesVideo: chunking.encodedIn == nil)
            progress(ComposeProgress(composedSeconds: Double(job.to) / Double(plan.fps), totalSeconds: total,
                                     elapsedSeconds: Date().timeIntervalSince(started)))
        }
        try joiner.finish()
        return joiner
    }
}
