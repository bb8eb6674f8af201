public import Foundation
public import StageMixCapture
public import StageMixPlan
import StageMixJSON
import StageMixLayout
public import StageMixPublishing
import StageMixReportPage

/// A whole `stagemix compose`: plan, compose, write reports, publish atomically.
public struct ComposeRun: Sendable {
    public let capture: Capture
    public let document: PlanDocument
    public let settings: ComposeSettings
    /// Video encoded in chunks side by side, then joined (`--chunk-seconds`); nil composes in one piece.
    public let chunking: Chunking?
    /// Set by `compose --follow`: what it did while the session was recorded, for `report.json`.
    public var followed: FollowReport?

    public init(capture: Capture, document: PlanDocument, settings: ComposeSettings, chunking: Chunking? = nil) {
        self.capture = capture
        self.document = document
        self.settings = settings
        self.chunking = chunking
    }

    /// What was written, and what was lost.
    public struct Report: Sendable, Codable {
        public var sessionId: String
        public var durationSeconds: Double
        public var frames: Int
        public var canvas: String
        public var fps: Int
        public var layout: String
        public var segmentSeconds: Double
        public var segmentFormat: String
        public var warnings: [String]
        /// Media file to why it could not be read; the composition shows placeholders or silence there.
        public var lostMedia: [String: String]
        /// Every stretch of session time in which a subscribed track could not be shown or heard as planned:
        /// track, planned layer, `[fromMs, toMs)`, cause, and the layer that stood in. Empty when nothing was lost.
        public var losses: [MediaLoss]
        /// Video frames decoded per layer file.
        public var decodedFrames: [String: Int]
        public var composeSeconds: Double
        /// Where the CPU went, in seconds of CPU time (all threads).
        public var cpuSeconds: CPUSeconds
        /// Loudness: target, gains, and what the output measured.
        public var loudness: LoudnessReport
        /// Stretches in which a tile showed another layer of its track than the plan chose, because
        /// the planned layer had no picture there and that one did.
        public var layerStandIns: [LayerStandIn]
        /// A chunked run's chunks: each one's time range, CPU and wall time; absent for a whole run.
        public var chunking: ChunkingReport?
        /// A run that followed the session as it was recorded (`compose --follow`); absent otherwise.
        public var followed: FollowReport?
    }

    /// Composes into `out`, replacing an earlier StageMix output there: see ``run(publishingWith:progress:shouldStop:)``.
    @discardableResult
    public func run(out: URL, progress: (ComposeProgress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Report {
        try run(publishingWith: FolderPublisher(target: out, overwrite: true, protecting: [capture.directory]),
                progress: progress, shouldStop: shouldStop)
    }

    /// Composes into a staging folder and publishes it whole through `publisher`: `hls/` (and
    /// `composition.mp4`, `poster.jpg`, `thumbnails/` and `thumbnails.vtt` when the settings ask for them),
    /// `timeline.json`, `billing.json`, `plan.json`, `report.json`. Refuses a target the publisher
    /// will not replace before any work; on any failure the staging folder is removed and the
    /// target is as it was.
    @discardableResult
    public func run(publishingWith publisher: any OutputPublishing, progress: (ComposeProgress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Report {
        // Media the capture names but does not have: reported, and composed around.
        let missing = CaptureReader.missingMedia(in: capture)
        return try publisher.publishStaged { staging in
            let started = Date()
            let hls = staging.appendingPathComponent(OutputFiles.hls)
            try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: false)
            // Media in a bucket: a read the store failed after its retries stops the run with the
            // store's error; the media is not composed around as if it were damaged.
            let storage = capture.objects
            let result: CompositionPipeline.Result
            var chunkingReport: ChunkingReport?
            do {
                let pipeline = CompositionPipeline(capture: capture, plan: document.plan, settings: settings,
                                                   stageEvents: StageEvent.of(document.timeline))
                let mp4 = settings.mp4 ? staging.appendingPathComponent(OutputFiles.mp4) : nil
                let stop = { shouldStop() || storage?.failure != nil }
                // A session without frames has nothing to cut: it is written as a whole run writes it.
                if let chunking, !document.plan.intervals.isEmpty, pipeline.frameCount > 0 {
                    // The chunks' files live in the staging folder, so whatever stops the run removes them
                    // with it; they go before publication.
                    let work = staging.appendingPathComponent(Self.chunkWork)
                    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
                    defer { try? FileManager.default.removeItem(at: work) }
                    (result, chunkingReport) = try ChunkedComposition(
                        capture: capture, plan: pipeline.plan, settings: settings, stageEvents: pipeline.stageEvents, chunking: chunking)
                        .run(hlsDirectory: hls, mp4: mp4, pictures: staging, work: work, progress: progress, shouldStop: stop)
                } else {
                    result = try pipeline.run(hlsDirectory: hls, mp4: mp4, pictures: staging, progress: progress, shouldStop: stop)
                }
            } catch {
                if let failure = storage?.failure { throw failure }
                throw error
            }
            if let failure = storage?.failure { throw failure }
            return try writeReports(result: result, chunking: chunkingReport, missing: missing, in: staging, started: started)
        }
    }

    /// The reports of a composition whose media are written into `staging`: `timeline.json`,
    /// `billing.json`, `plan.json`, `report.json` and `report.html`.
    func writeReports(result: CompositionPipeline.Result, chunking chunkingReport: ChunkingReport?, missing: [JSONProblem],
                      in staging: URL, started: Date) throws -> Report {
        // Lost media is what the composition needed and could not read, keyed by its file and told once;
        // a missing file the plan never reads (a layer no tile shows) is nobody's loss.
        let lost = Self.lostMedia(result.lostMedia, missing: missing)
        let plan = document.plan
        let report = Report(
            sessionId: plan.sessionId, durationSeconds: Double(plan.durationMs) / 1000, frames: result.frames,
            canvas: "\(plan.canvas.width)x\(plan.canvas.height)", fps: plan.fps, layout: plan.layoutName,
            segmentSeconds: settings.segmentSeconds, segmentFormat: settings.segmentFormat.rawValue,
            warnings: document.warnings + (capture.importNote?.reportWarnings ?? []) + result.warnings, lostMedia: lost, losses: result.losses, decodedFrames: result.decodedFrames, composeSeconds: Date().timeIntervalSince(started),
            cpuSeconds: result.cpuSeconds, loudness: result.loudness, layerStandIns: result.layerStandIns,
            chunking: chunkingReport, followed: followed)
        try write(document.timeline, to: OutputFiles.timeline, in: staging)
        try write(document.billing, to: OutputFiles.billing, in: staging)
        try write(document.plan, to: OutputFiles.plan, in: staging)
        try write(report, to: OutputFiles.report, in: staging)
        try Data(ReportPage(document: document, run: composedRun(report, started: started), capture: capture).html().utf8)
            .write(to: staging.appendingPathComponent(OutputFiles.reportPage))
        return report
    }

    /// What `report.html` shows of this run besides the plan.
    private func composedRun(_ report: Report, started: Date) -> ComposedRun {
        let cpu = report.cpuSeconds
        let parts: [(part: String, seconds: Double)] = [
            ("encoders and muxing", cpu.encodeMux), ("video decoding", cpu.videoDecode), ("scaling into the canvas", cpu.videoCompose),
            ("audio decoding and mixing", cpu.audioDecodeMix), ("loudness pass", cpu.loudnessPass), ("demuxing", cpu.decodeThread),
        ]
        let losses = report.losses.map {
            ComposedRun.Loss(trackId: $0.trackId, fromMs: $0.fromMs, toMs: $0.toMs, message: $0.detail ?? $0.cause.rawValue)
        }
        let thumbnails = settings.thumbnailSeconds.map { ThumbnailWriter.list(plan: document.plan, seconds: $0) } ?? []
        return ComposedRun(composedAt: started, composeSeconds: report.composeSeconds, cpuSeconds: parts, losses: losses,
                           warnings: report.warnings, mp4: settings.mp4, thumbnails: thumbnails, renditions: settings.renditions.map(\.name))
    }

    /// What the pipeline could not read, each file once: a file missing from the capture is told by
    /// where the capture names it and what was there, the pipeline's own words for anything else.
    static func lostMedia(_ read: [String: String], missing: [JSONProblem]) -> [String: String] {
        var lost = read
        for problem in missing where lost[problem.file] != nil {
            let found = problem.found.hasSuffix(" at \(problem.file)") ? String(problem.found.dropLast(" at \(problem.file)".count)) : problem.found
            lost[problem.file] = "\(problem.path): \(found) there (expected \(problem.expected))"
        }
        return lost
    }

    /// The chunks' work folder in the staging folder: hidden, and gone before publication.
    static let chunkWork = ".chunks"

    private func write<T: Encodable>(_ value: T, to name: String, in directory: URL) throws {
        try PlanDocument.encode(value).write(to: directory.appendingPathComponent(name))
    }
}
