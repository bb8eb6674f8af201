public import Foundation
public import StageMixCapture
public import StageMixPlan
public import StageMixOptions
import StageMixTime

/// The part of `compose --follow` that runs while the session is recorded: it waits on the capture
/// folder with inotify (a look a second at most without it; `session.json` is replaced by a rename,
/// so its identity tells a new version), checks each version and the media against the recorder's
/// contract (``RecorderContract``), plans what is known so far, and encodes each chunk of video as soon as
/// `completeToMs` has passed its end (and the margin a reader may need), into the work folder as the
/// queue's workers put chunks (``ChunkRun/chunkFolder(_:in:)``). It returns when `session.ended`
/// has arrived, with the slice of plan each chunk was encoded from, for the end to check.
public struct FollowedChunks {
    public let capture: any CaptureSource
    public let options: ComposeOptions
    public let runner: any ChunkRunner
    public let work: URL
    /// A recorder that adds nothing (no new `session.json`, no media growing) for this long has stopped.
    public let timeoutSeconds: Double
    /// How far past a chunk's end `completeToMs` must be before the chunk is encoded.
    public static let marginMs = 500
    /// A speaker layout's lookahead: how much audio past a chunk's end is heard before the chunk is
    /// planned for good. The detector places a switch where the new speaker began, once they have been
    /// the loudest for 1.5 s, with gaps of up to 1 s: 3 s covers that (docs/follow.md).
    public static let speakerLookaheadMs = 3_000
    /// The speaker pass heard so far, when the layout listens: it goes on to the session's end.
    let listening = SpeakerListening()

    public init(capture: any CaptureSource, options: ComposeOptions, runner: any ChunkRunner, work: URL, timeoutSeconds: Double) {
        self.capture = capture
        self.options = options
        self.runner = runner
        self.work = work
        self.timeoutSeconds = timeoutSeconds
    }

    /// What following left: the chunks encoded, each with the slice of plan it was made from; the lag
    /// kept (the largest gap between `completeToMs` and the end of the chunks encoded, in ms).
    public struct Log: Sendable {
        public var encoded: [Int: ChunkPlanSlice] = [:]
        public var ranges: [Int: Range<Int>] = [:]
        public var versions = 0
        public var lastCompleteToMs = 0
        /// The end of the chunks made so far, in ms of session time.
        public var composedMs = 0
        public var maxLagMs = 0
        /// When `session.ended` was read.
        public var endedAt = Date()
        /// Chunks found made by an earlier attempt (a worker that died), not encoded again.
        public var takenOver = 0
    }

    /// Follows until `session.ended` arrives; `encoded` is given each chunk as soon as it is made, with
    /// the plan and the capture known then; `progress` the recorded and the composed positions (ms of
    /// session time) each time either has moved: as each chunk lands, and after a version that recorded more.
    public func run(shouldStop: @escaping @Sendable () -> Bool, progress: (Int, Int) -> Void,
                    encoded: (ChunkJob, CompositionPlan, Capture) throws -> Void = { _, _, _ in }) throws -> Log {
        var log = Log()
        var reported = (recorded: -1, composed: -1)
        func report(_ recorded: Int, _ composed: Int) {
            guard reported != (recorded, composed) else { return }
            reported = (recorded, composed)
            progress(recorded, composed)
        }
        var lastChange = Date()
        var lastStamp: FileStamp?
        let manifest = URL(fileURLWithPath: capture.location).appendingPathComponent(CaptureReader.manifestName)
        let watch = FolderWatch(URL(fileURLWithPath: capture.location))
        var contract = RecorderContract(manifest: manifest)
        while true {
            if shouldStop() { throw CancellationError() }
            let stamp = FileStamp(manifest) ?? lastStamp
            // Media growing is the recorder at work too; looked at once a wake.
            do { if try contract.mediaGrew() { lastChange = Date() } } catch { throw BadInput(error) }
            guard stamp != lastStamp || log.versions == 0 else {
                if Date().timeIntervalSince(lastChange) > timeoutSeconds {
                    throw FollowTimeout(completeToMs: log.lastCompleteToMs, seconds: timeoutSeconds)
                }
                // Woken by inotify when the recorder renames a new version in; else a look a second at most.
                watch.wait(timeout: 1)
                continue
            }
            lastStamp = stamp
            lastChange = Date()
            let known: Capture
            do {
                try contract.checkCurrentVersion()
                known = try capture.capture(inProgress: .knownSoFar)
            } catch { throw BadInput(error) }
            guard let completeToMs = known.completeToMs else {
                log.endedAt = Date()
                return log
            }
            log.versions += 1
            log.lastCompleteToMs = completeToMs
            // The lag as it stands before the chunks this version makes ready are composed: the largest it gets.
            log.maxLagMs = max(log.maxLagMs, completeToMs - log.composedMs)
            // Every sample below completeToMs is written: the speaker pass hears on to there (whole hops).
            let heard = max(0, completeToMs - Self.marginMs) / SpeakerLevels.hopMs * SpeakerLevels.hopMs
            let listening = self.listening
            let (_, _, document) = try CompositionInput.plan(capture: StaticCapture(capture: known), options: options, inProgress: .knownSoFar,
                                                             speakers: { capture, timeline in
                                                                 try listening.speakers(capture: capture, timeline: timeline, heardToMs: heard,
                                                                                        growing: true, shouldStop: shouldStop)
                                                             })
            let plan = document.plan
            let ready = MediaTime.frame(atMs: max(0, completeToMs - Self.marginMs - (listening.listens ? Self.speakerLookaheadMs : 0)),
                                        fps: plan.fps)
            for (index, frames) in ChunkRun.ranges(plan: plan, options: options).enumerated()
            where log.encoded[index] == nil && frames.upperBound <= ready && frames.count == Self.fullChunk(plan: plan, options: options) {
                let found = Self.madeEarlier(index, frames: frames, plan: plan, options: options, work: work)
                let job = try found ?? encode(index, frames: frames, plan: plan, shouldStop: shouldStop)
                if found != nil { log.takenOver += 1 }
                log.encoded[index] = ChunkPlanSlice(plan: plan, frames: frames)
                try encoded(job, plan, known)
                log.ranges[index] = frames
                log.composedMs = MediaTime.ms(atFrame: frames.upperBound, fps: plan.fps)
                report(completeToMs, log.composedMs)
            }
            report(completeToMs, log.composedMs)
        }
    }

    /// Chunk `index` as an earlier attempt of this composition left it in the work folder (its worker
    /// died mid-session): kept when it is whole (its result written), lost nothing, covers `frames`, and
    /// was made from the slice of plan `plan` gives; else nil, and it is encoded again.
    static func madeEarlier(_ index: Int, frames: Range<Int>, plan: CompositionPlan, options: ComposeOptions, work: URL) -> ChunkJob? {
        let folder = ChunkRun.chunkFolder(index, in: work)
        guard let job = try? ChunkJob.read(from: ChunkJob.jobFile(index, in: folder)), job.options == options,
              let result = try? ChunkResult.read(from: job.resultFile),
              job.work == folder.path, job.frames == frames, result.from == frames.lowerBound, result.to == frames.upperBound,
              result.lostMedia.isEmpty, result.lossNotes.isEmpty else { return nil }
        var made = ChunkPlanSlice(plan: job.plan, frames: frames), now = ChunkPlanSlice(plan: plan, frames: frames)
        made.posterFrame = nil
        now.posterFrame = nil
        return made == now ? job : nil
    }

    /// Frames in a whole chunk (the last of a session may be shorter).
    static func fullChunk(plan: CompositionPlan, options: ComposeOptions) -> Int {
        let settings = ComposeSettings(options)
        let keyframeEvery = RenditionSpec.keyframeInterval(canvasFps: plan.fps, segmentSeconds: settings.segmentSeconds)
        return keyframeEvery * max(1, Int(((options.chunkSeconds ?? settings.segmentSeconds) / settings.segmentSeconds).rounded()))
    }

    /// Encodes chunk `index` into a folder of its own beside its final place, then renames it there whole.
    func encode(_ index: Int, frames: Range<Int>, plan: CompositionPlan, shouldStop: @escaping @Sendable () -> Bool) throws -> ChunkJob {
        try Self.encode(index, frames: frames, plan: plan, capture: capture.location, options: options, runner: runner, work: work,
                        shouldStop: shouldStop)
    }

    /// Returns the chunk's job as placed in its final folder.
    @discardableResult
    public static func encode(_ index: Int, frames: Range<Int>, plan: CompositionPlan, capture: String, options: ComposeOptions,
                              runner: any ChunkRunner, work: URL, shouldStop: @escaping @Sendable () -> Bool) throws -> ChunkJob {
        try encode(index, frames: frames, plan: plan, capture: capture, options: options, runner: runner,
                   final: ChunkRun.chunkFolder(index, in: work), shouldStop: shouldStop)
    }

    /// Encodes frames `frames` of `plan` as chunk `index` into a folder of its own beside `final`, then renames it there whole.
    static func encode(_ index: Int, frames: Range<Int>, plan: CompositionPlan, capture: String, options: ComposeOptions,
                       runner: any ChunkRunner, final: URL, shouldStop: @escaping @Sendable () -> Bool) throws -> ChunkJob {
        let work = final.deletingLastPathComponent()
        // A name of its own: an attempt whose worker lost its lease may still be writing beside this one.
        let attempt = work.appendingPathComponent(".\(final.lastPathComponent).attempt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: attempt, withIntermediateDirectories: true)
        let job = ChunkJob(index: index, capture: capture, options: options, plan: plan, from: frames.lowerBound, to: frames.upperBound,
                           work: attempt.path, pictures: attempt.path)
        try job.write(to: job.jobFile)
        try runner.run(job: job.jobFile, shouldStop: shouldStop)
        if shouldStop() { throw CancellationError() }
        // The job's paths name the attempt's folder: written again for the place the join reads from.
        var placed = job
        placed.work = final.path
        placed.pictures = final.path
        try? FileManager.default.removeItem(at: final)
        try FileManager.default.moveItem(at: attempt, to: final)
        try placed.write(to: placed.jobFile)
        return placed
    }
}
