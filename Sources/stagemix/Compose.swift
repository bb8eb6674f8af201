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
                75 object storage unreachable or failing after the retries, 130/143 stopped by SIGINT/SIGTERM.
                """)

        @OptionGroup var plan: PlanOptions
        @OptionGroup var encode: EncodeOptions

        @OptionGroup var target: ComposeTarget

        @OptionGroup var chunks: ChunkOptions

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
                            return try CompositionInput.plan(capture: CaptureSources.source(at: captureDirectory), options: options, speakers: SpeakerAnalysis.planningPass(shouldStop: { signals.stopRequested }))
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
                let (capture, _, doc) = planned
                try capture.checkStorage()
                for warning in doc.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                let chunking = options.chunkSeconds.map {
                    Chunking(seconds: $0, jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, options: options,
                             runner: ChunkProcess(), encodedIn: chunkPhase == .join ? work : nil)
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
                        FileHandle.standardError.write(Data("stagemix: stopped; \(destination) is as it was\n".utf8))
                        throw ExitCode(status)
                    }
                    if error is OutputRefusal { throw BadInput(error) }
                    if let chunk = error as? ChunkFailure, !chunk.signalled, chunk.status != 0 {
                        // The chunk said what went wrong, and its exit status says whose fault it was.
                        FileHandle.standardError.write(Data("stagemix: \(chunk)\n".utf8))
                        throw ExitCode(chunk.status)
                    }
                    throw error
                }
                for standIn in report.layerStandIns {
                    let line = String(format: "note: %@ showed its %@ layer for %@ from %.2f to %.2f s (no picture in the planned layer there)\n",
                                      standIn.trackId, standIn.shown.rawValue, standIn.planned.rawValue,
                                      Double(standIn.fromMs) / 1000, Double(standIn.toMs) / 1000)
                    FileHandle.standardError.write(Data(line.utf8))
                }
                for warning in report.warnings.dropFirst(doc.warnings.count) {
                    FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
                }
                for line in report.lostMediaLines() { FileHandle.standardError.write(Data("warning: \(line)\n".utf8)) }
                for line in report.lossSummary() { FileHandle.standardError.write(Data("warning: \(line)\n".utf8)) }
                let summary = String(format: "composed %@: %.1f s in %.1f s (%.1fx) -> %@/%@\n",
                                     report.sessionId, report.durationSeconds, report.composeSeconds,
                                     report.durationSeconds / max(report.composeSeconds, 0.001), destination.description,
                                     OutputFiles.hlsPlaylist)
                FileHandle.standardError.write(Data(summary.utf8))
            }
        }
    }
}
