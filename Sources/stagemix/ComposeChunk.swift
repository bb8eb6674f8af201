import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixCapture
import StageMixMedia
import StageMixPipeline
#if canImport(Glibc)
import Glibc
#endif

extension StageMix {
    /// `stagemix compose-chunk JOB`: one chunk of a chunked `compose`, in a child process of it; with
    /// `--audio`, the session's audio (loudness pass, mix, AAC) beside the chunks. Not for people:
    /// `compose --chunk-seconds` writes the job and reads the result beside it.
    struct ComposeChunk: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compose-chunk", abstract: "Encode one chunk of a chunked compose (run by compose itself).",
            shouldDisplay: false)

        @Argument(help: "The chunk's job file, in the run's work folder.")
        var job: String?

        /// On the queue: chunk `--index` (or the session's audio, `--audio`) of the chunked composition whose
        /// work folder is `--work`, writing into `--into`.
        @Option var work: String?
        @Option var index: Int?
        @Flag var audio = false
        @Option var into: String?
        /// The worker that runs this chunk, named by itself (see `compose --worker-pid`).
        @Option(name: .customLong("worker-pid"), help: .hidden) var workerPid: Int32?

        func validate() throws {
            guard (job == nil) == (work != nil && (index != nil) != audio && into != nil), job != nil || work != nil,
                  job == nil || index == nil else {
                throw ValidationError("give the chunk's job file, or --work, --index (or --audio) and --into")
            }
        }

        /// The session's audio job: its file, or the work folder's `run.json`'s, writing into `--into` (made here).
        func audioJob() throws -> SessionAudioJob {
            if let job { return try SessionAudioJob.read(from: URL(fileURLWithPath: job)) }
            let run = try ChunkRun.read(in: URL(fileURLWithPath: work!))
            let folder = URL(fileURLWithPath: into!)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try run.audioJob(writingInto: folder)
        }

        /// The job: its file, or chunk `--index` of the work folder's `run.json`, writing into `--into` (made here).
        func chunkJob() throws -> ChunkJob {
            if let job { return try ChunkJob.read(from: URL(fileURLWithPath: job)) }
            let run = try ChunkRun.read(in: URL(fileURLWithPath: work!))
            let folder = URL(fileURLWithPath: into!)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try run.job(index!, writingInto: folder)
        }

        func run() async throws {
            let signals = StopSignals()
            // A chunk outlives no run: once its parent is gone (even killed), it stops at the next frame.
            let worker = WorkerWatch(workerPid: workerPid)
            try await runReportingErrors {
                MediaLog.setLevel(.error)
                let shouldStop = { @Sendable in signals.stopRequested || worker.isGone }
                do {
                    if audio {
                        let job = try audioJob()
                        try await onOwnThread(named: "stagemix-audio") {
                            let capture = try CaptureSources.source(at: job.capture).capture(inProgress: .knownSoFar)
                            try SessionAudioEncoding(job: job).run(capture: capture, shouldStop: shouldStop)
                        }
                    } else {
                        let job = try chunkJob()
                        try await onOwnThread(named: "stagemix-chunk") {
                            // A chunk of a followed composition reads the capture as it was recorded so far; its plan is in the job.
                            let capture = try CaptureSources.source(at: job.capture).capture(inProgress: .knownSoFar)
                            try ChunkEncoding(job: job).run(capture: capture, shouldStop: shouldStop)
                        }
                    }
                } catch is CancellationError {
                    throw ExitCode(signals.exitStatus ?? .interrupted)
                }
            }
        }
    }
}
