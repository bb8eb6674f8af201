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
    /// `stagemix compose-chunk JOB`: one chunk of a chunked `compose`, in a child process of it. Not
    /// for people: `compose --chunk-seconds` writes the job and reads the result beside it.
    struct ComposeChunk: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compose-chunk", abstract: "Encode one chunk of a chunked compose (run by compose itself).",
            shouldDisplay: false)

        @Argument(help: "The chunk's job file, in the run's work folder.")
        var job: String

        func run() async throws {
            let signals = StopSignals()
            // A chunk outlives no run: once its parent is gone (even killed), it stops at the next frame.
            let parent = getppid()
            try await runReportingErrors {
                MediaLog.setLevel(.error)
                let job = try ChunkJob.read(from: URL(fileURLWithPath: self.job))
                do {
                    try await onOwnThread(named: "stagemix-chunk") {
                        let capture = try CaptureSources.source(at: job.capture).capture()
                        try ChunkEncoding(job: job).run(capture: capture, shouldStop: { signals.stopRequested || getppid() != parent })
                    }
                } catch is CancellationError {
                    throw ExitCode(signals.exitStatus ?? .interrupted)
                }
            }
        }
    }
}
