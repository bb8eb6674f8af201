import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
import StageMixOptions
import StageMixPublishing
import StageMixPipeline
#if canImport(Glibc)
import Glibc
#endif

extension StageMix {
    /// `stagemix compose`: the main job.
    struct Compose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compose a capture into HLS with timeline.json and billing.json.",
            discussion: """
                Exit codes: 0 done, 64 usage error (an option's value), 65 bad input (capture, layout, tables, \
                an --out StageMix will not replace, storage credentials or a bucket refused), 70 internal failure, \
                73 not enough free space for the output (checked before any decoding; --no-space-check skips it), \
                74 no space left on device while writing (the run stopped and removed what it wrote), \
                75 object storage unreachable or failing after the retries, 130/143 stopped by SIGINT/SIGTERM.
                """)

        @OptionGroup var plan: PlanOptions
        @OptionGroup var encode: EncodeOptions

        @OptionGroup var target: ComposeTarget

        @OptionGroup var chunks: ChunkOptions

        @Flag(help: "Compose even when the output's file system seems to have too little free space for it (by default compose estimates what it will write and refuses with exit 73, before decoding anything; docs/limits.md).")
        var noSpaceCheck = false

        @Flag(help: "Compose a capture while it is recorded (a capture in progress): each chunk as soon as it is recorded, the output published whole when the session ends (docs/follow.md).")
        var follow = false

        @Option(help: "With --follow: seconds without a new session.json after which the recorder is taken for stopped (exit 75, nothing published).")
        var followTimeout: Double = 120

        @Option(help: ArgumentHelp("With --follow: also keep an HLS EVENT playlist of the segments composed so far in this folder, ended when the output is published (docs/follow.md).", valueName: "dir"))
        var liveOut: String?

        /// On the queue: which phase of a chunked composition this run is, and its work folder (docs/chunks.md).
        @Option(name: .customLong("chunk-phase"), help: .hidden) var chunkPhase: QueuePhase?
        @Option(name: .customLong("chunk-work"), help: .hidden) var chunkWork: String?
        /// On the queue, a followed composition's work folder, kept across attempts: an attempt after one
        /// whose worker died carries on from the chunks found there (docs/follow.md).
        @Option(name: .customLong("follow-work"), help: .hidden) var followWork: String?
        /// The worker that runs this phase, named by itself: a child that read its parent only once started
        /// could read the init process's pid if the worker died meanwhile, and never learn it is alone.
        @Option(name: .customLong("worker-pid"), help: .hidden) var workerPid: Int32?

        /// The options together: `--chunk-seconds` is checked against `--segment-seconds`.
        func validate() throws {
            try target.options(plan: plan, encode: encode, chunks: chunks).validateForCommandLine()
            if (chunkPhase == nil) != (chunkWork == nil) || (chunkPhase != nil && chunks.chunkSeconds == nil) {
                throw ValidationError("--chunk-phase and --chunk-work go together, with --chunk-seconds")
            }
            if follow {
                if plan.capture.contains("://") {
                    throw ValidationError("--follow reads a capture folder on this machine, as it is recorded (not yet s3://)")
                }
                if target.options(plan: plan, encode: encode, chunks: chunks).edits != nil { throw ValidationError("--follow does not take --edits: an edit may name any moment of a session not yet recorded") }
                if chunkPhase != nil { throw ValidationError("--follow runs on its own, not as a phase of a queued composition") }
                guard followTimeout.isFinite, followTimeout >= 1, followTimeout <= 86_400 else {
                    throw ValidationError("--follow-timeout must be between 1 and 86400 seconds")
                }
                if let liveOut {
                    if liveOut.contains("://") { throw ValidationError("--live-out writes a folder on this machine (not yet s3://)") }
                    let live = URL(fileURLWithPath: liveOut).standardizedFileURL.path + "/"
                    for (name, other) in [("--out", target.out), ("the capture", plan.capture)] {
                        let path = URL(fileURLWithPath: other).standardizedFileURL.path + "/"
                        if live.hasPrefix(path) || path.hasPrefix(live) {
                            throw ValidationError("--live-out \(liveOut) must be a folder of its own, not \(name) nor inside it or holding it")
                        }
                    }
                }
            } else if liveOut != nil || followWork != nil {
                throw ValidationError("\(liveOut != nil ? "--live-out" : "--follow-work") goes with --follow")
            }
        }

        /// Refuses (exit 73) an output whose file system clearly has too little room for what this run will
        /// write, unless `--no-space-check`: measured where the staging goes (beside a folder `--out`, in
        /// the temporary folder for a bucket's).
        static func checkSpace(capture: Capture, layout: Layout, options: ComposeOptions, out: String) throws {
            let estimate = OutputSpaceEstimate(settings: ComposeSettings(options), canvas: layout.canvas, fps: layout.fps,
                                               seconds: Double(capture.durationMs) / 1000, chunked: options.chunkSeconds != nil)
            let local = !out.contains("://")
            try estimate.check(at: local ? out : FileManager.default.temporaryDirectory.path,
                               what: local ? "the output" : "the output's staging before upload")
        }

        func run() async throws {
            let signals = StopSignals()
            try await runReportingErrors {
                MediaLog.setLevel(.error)
                if follow {
                    var options = target.options(plan: plan, encode: encode, chunks: chunks)
                    // Chunks of about ten seconds, a whole number of segments, unless --chunk-seconds says.
                    let segment = options.segmentSecondsOrDefault
                    options.chunkSeconds = options.chunkSeconds ?? segment * max(1, (10 / segment).rounded())
                    let followed = ComposeFollow(capture: plan.capture, options: options, out: target.out, overwrite: target.overwrite,
                                                 timeoutSeconds: followTimeout, liveOut: liveOut,
                                                 sharedWork: followWork.map { URL(fileURLWithPath: $0) }, worker: workerPid.map { WorkerWatch(workerPid: $0) },
                                                 signals: signals)
                    try await onOwnThread(named: "stagemix-follow") { try followed.run() }
                    return
                }
                let options = target.options(plan: plan, encode: encode, chunks: chunks)
                let captureDirectory = plan.capture
                let out = target.out, checking = !noSpaceCheck
                let space: @Sendable (Capture, Layout, ComposeOptions) throws -> Void = { capture, layout, options in
                    if checking { try Self.checkSpace(capture: capture, layout: layout, options: options, out: out) }
                }
                // A speaker layout decodes every microphone while planning: C work, on a thread of its own, stoppable.
                let planned: (Capture, Layout, PlanDocument)
                let work = chunkWork.map { URL(fileURLWithPath: $0) }
                let phase = chunkPhase
                // A phase of a chunked composition outlives no worker: once its worker is gone (even killed),
                // it stops, as a chunk does, rather than wait for chunks nobody will hand it.
                let worker = WorkerWatch(workerPid: workerPid)
                let orphaned = { @Sendable in phase != nil && worker.isGone }
                do {
                    planned = try await onOwnThread(named: "stagemix-plan") {
                        switch phase {
                        case nil:
                            return try CompositionInput.plan(capture: CaptureSources.source(at: captureDirectory), options: options,
                                                             speakers: SpeakerAnalysis.planningPass(shouldStop: { signals.stopRequested }),
                                                             beforeMedia: { capture, layout in try space(capture, layout, options) })
                        case .plan?:
                            return try QueuePhase.plan(capture: captureDirectory, options: options, work: work!, shouldStop: { signals.stopRequested || orphaned() })
                        case .join?:
                            return try QueuePhase.replan(capture: captureDirectory, options: options, work: work!)
                        }
                    }
                } catch is CancellationError {
                    throw ExitCode(signals.exitStatus ?? .interrupted)
                }
                // The plan phase ends with the plan: the chunks are the queue's to share out.
                if chunkPhase == .plan { return }
                let (capture, layout, doc) = planned
                // The join of a queued composition writes the output: it checks as a whole run does.
                if chunkPhase == .join { try space(capture, layout, options) }
                try capture.checkStorage()
                for warning in doc.warnings { try? FileHandle.standardError.write(contentsOf: Data("warning: \(warning)\n".utf8)) }
                // A join remuxes the audio its plan made a job of its own; one planned by a version before that mixes it.
                let audioApart = try chunkPhase != .join || ChunkRun.read(in: work!).audioApart == true
                let chunking = options.chunkSeconds.map {
                    Chunking(seconds: $0, jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, options: options,
                             runner: ChunkProcess(), encodedIn: chunkPhase == .join ? work : nil, audioApart: audioApart)
                }
                let job = ComposeRun(capture: capture, document: doc, settings: ComposeSettings(options), chunking: chunking)
                let destination: OutputDestination
                do { destination = try OutputDestination(parsing: target.out) } catch { throw BadInput(error) }
                let publisher = destination.publisher(overwrite: target.overwrite, protecting: [capture.directory])
                // Encoding blocks in C for minutes: it gets a thread of its own, not one of Swift's cooperative pool.
                let report: ComposeRun.Report
                do {
                    report = try await onOwnThread(named: "stagemix-encode") {
                        let display = ProgressDisplay()
                        defer { display.finish() }
                        return try job.run(publishingWith: publisher, progress: display.show, shouldStop: { signals.stopRequested || orphaned() })
                    }
                } catch {
                    if let status = signals.exitStatus {
                        try? FileHandle.standardError.write(contentsOf: Data("stagemix: stopped; \(destination) is as it was\n".utf8))
                        throw ExitCode(status)
                    }
                    if error is OutputRefusal { throw BadInput(error) }
                    if let chunk = error as? ChunkFailure, !chunk.signalled, chunk.status != 0 {
                        // The chunk said what went wrong, and its exit status says whose fault it was.
                        try? FileHandle.standardError.write(contentsOf: Data("\(chunk.line)\n".utf8))
                        throw ExitCode(chunk.status)
                    }
                    throw error
                }
                for standIn in report.layerStandIns {
                    let line = String(format: "note: %@ showed its %@ layer for %@ from %.2f to %.2f s (no picture in the planned layer there)\n",
                                      standIn.trackId, standIn.shown.rawValue, standIn.planned.rawValue,
                                      Double(standIn.fromMs) / 1000, Double(standIn.toMs) / 1000)
                    try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
                }
                for warning in report.warnings.dropFirst(doc.warnings.count) {
                    try? FileHandle.standardError.write(contentsOf: Data("warning: \(warning)\n".utf8))
                }
                for line in report.lostMediaLines() { try? FileHandle.standardError.write(contentsOf: Data("warning: \(line)\n".utf8)) }
                for line in report.lossSummary() { try? FileHandle.standardError.write(contentsOf: Data("warning: \(line)\n".utf8)) }
                let summary = String(format: "composed %@: %.1f s in %.1f s (%.1fx) -> %@/%@\n",
                                     report.sessionId, report.durationSeconds, report.composeSeconds,
                                     report.durationSeconds / max(report.composeSeconds, 0.001), destination.description,
                                     OutputFiles.hlsPlaylist)
                try? FileHandle.standardError.write(contentsOf: Data(summary.utf8))
            }
        }
    }
}
