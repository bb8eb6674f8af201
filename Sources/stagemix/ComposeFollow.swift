import ArgumentParser
import Foundation
import StageMixCapture
import StageMixCommandLine
import StageMixOptions
import StageMixPipeline
import StageMixPlan
import StageMixPublishing

/// `compose --follow`: the capture is composed while it is recorded (docs/follow.md). Each chunk of
/// video is encoded as soon as `completeToMs` passes its end, into a work folder beside `--out`; when
/// `session.ended` arrives, the whole session is planned once more, every chunk whose slice of that
/// plan differs (or that must hold the poster) is encoded again, the rest are encoded, and the join
/// (audio, loudness, segments, reports) writes the output a whole run writes, published whole.
struct ComposeFollow {
    let capture: String
    let options: ComposeOptions
    let out: String
    let overwrite: Bool
    let timeoutSeconds: Double
    /// `--live-out`: a folder for the EVENT playlist of the segments composed so far.
    let liveOut: String?
    /// On the queue: the composition's work folder, kept when this attempt fails, for the next one to carry on from.
    let sharedWork: URL?
    /// On the queue: the worker this run belongs to; once it is gone, the run stops.
    let worker: WorkerWatch?
    let signals: StopSignals

    /// The work folder: hidden, beside the output, removed whatever happens (on the queue, the composition's).
    var work: URL {
        if let sharedWork { return sharedWork }
        // An output in a bucket: the work stays on this machine.
        if out.contains("://") { return FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-follow-\(getpid())") }
        let target = URL(fileURLWithPath: out).standardizedFileURL
        return target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).stagemix-follow-\(getpid())")
    }

    func run() throws {
        // An output StageMix would not replace is refused now, not after the whole session.
        let destination: OutputDestination
        do {
            destination = try OutputDestination(parsing: out)
            try destination.publisher(overwrite: overwrite, protecting: [URL(fileURLWithPath: capture).standardizedFileURL]).check()
        } catch {
            throw BadInput(error)
        }
        let live: LiveOutput?
        do {
            live = try liveOut.map { try LiveOutput(directory: URL(fileURLWithPath: $0)) }
        } catch {
            throw BadInput(error)
        }
        let work = self.work
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // On the queue the worker removes the work once the composition has ended, and keeps it for another attempt until then.
        defer { if sharedWork == nil { try? FileManager.default.removeItem(at: work) } }
        let source = CaptureFolder(path: capture)
        let signals = self.signals
        let worker = self.worker
        let composition = FollowedComposition(capture: source, options: options, runner: ChunkProcess(), work: work, timeoutSeconds: timeoutSeconds,
                                              liveOut: live)
        let publisher = destination.publisher(overwrite: overwrite, protecting: [URL(fileURLWithPath: capture).standardizedFileURL])
        let outcome: FollowedComposition.Outcome
        // On a terminal a line on stderr; otherwise JSON lines on stdout, which a worker stores with its heartbeats.
        let display = ProgressDisplay()
        do {
            outcome = try composition.run(publishingWith: publisher, progress: { recorded, composed in
                display.showFollowing(recordedMs: recorded, composedMs: composed)
            }, shouldStop: { signals.stopRequested || worker?.isGone == true })
        } catch let timeout as FollowTimeout {
            try? FileHandle.standardError.write(contentsOf: Data("\nstagemix: \(timeout)\n".utf8))
            throw ExitCode(75)
        } catch let chunk as ChunkFailure where !chunk.signalled && chunk.status != 0 {
            if let status = signals.exitStatus { throw ExitCode(status) }
            try? FileHandle.standardError.write(contentsOf: Data("\n\(chunk.line)\n".utf8))
            throw ExitCode(chunk.status)
        } catch {
            if let status = signals.exitStatus {
                try? FileHandle.standardError.write(contentsOf: Data("\nstagemix: stopped; \(destination) is as it was\n".utf8))
                throw ExitCode(status)
            }
            if error is CancellationError { throw ExitCode(.interrupted) }
            if error is OutputRefusal { throw BadInput(error) }
            throw error
        }
        let report = outcome.report
        let summary = String(format: "\ncomposed %@ following its recording: %.1f s, %d of %d chunks while it was recorded (lag at most %.1f s)%@%@, "
                             + "published %.1f s after the session ended -> %@\n",
                             report.sessionId, report.durationSeconds, outcome.kept, outcome.chunks, Double(outcome.maxLagMs) / 1000,
                             outcome.takenOver > 0 ? ", \(outcome.takenOver) of them taken over from an earlier attempt" : "",
                             outcome.restarted ? "; the layout looks at the whole session, so the join started over at its end" : "",
                             Date().timeIntervalSince(outcome.sessionEnded), destination.description)
        try? FileHandle.standardError.write(contentsOf: Data(summary.utf8))
    }
}
