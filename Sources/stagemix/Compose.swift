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

extension StageMix {
    /// `stagemix compose`: the main job.
    struct Compose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compose a capture into HLS with timeline.json and billing.json.",
            discussion: """
                Exit codes: 0 done, 64 usage error (an option's value), 65 bad input (capture, layout, tables, \
                an --out StageMix will not replace), 70 internal failure, 130/143 stopped by SIGINT/SIGTERM.
                """)

        @OptionGroup var plan: PlanOptions
        @OptionGroup var encode: EncodeOptions

        @OptionGroup var target: ComposeTarget

        @OptionGroup var chunks: ChunkOptions

        /// The options together: `--chunk-seconds` is checked against `--segment-seconds`.
        func validate() throws {
            try target.options(plan: plan, encode: encode, chunks: chunks).validateForCommandLine()
        }

        func run() async throws {
            let signals = StopSignals()
            try await runReportingErrors {
                MediaLog.setLevel(.error)
                let options = target.options(plan: plan, encode: encode, chunks: chunks)
                let captureDirectory = plan.capture
                // A speaker layout decodes every microphone while planning: C work, on a thread of its own, stoppable.
                let planned: (Capture, Layout, PlanDocument)
                do {
                    planned = try await onOwnThread(named: "stagemix-plan") {
                        try CompositionInput.plan(capture: CaptureSources.source(at: captureDirectory), options: options, speakers: SpeakerAnalysis.planningPass(shouldStop: { signals.stopRequested }))
                    }
                } catch is CancellationError {
                    throw ExitCode(signals.exitStatus ?? .interrupted)
                }
                let (capture, _, doc) = planned
                try capture.checkStorage()
                for warning in doc.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                let chunking = options.chunkSeconds.map {
                    Chunking(seconds: $0, jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, options: options,
                             runner: ChunkProcess())
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
                        return try job.run(publishingWith: publisher, progress: display.show, shouldStop: { signals.stopRequested })
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
                for (file, why) in report.lostMedia.sorted(by: { $0.key < $1.key }) {
                    FileHandle.standardError.write(Data("warning: lost media \(file): \(why)\n".utf8))
                }
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
