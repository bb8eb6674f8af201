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
    let signals: StopSignals

    /// The work folder: hidden, beside the output, removed whatever happens.
    var work: URL {
        let target = URL(fileURLWithPath: out).standardizedFileURL
        return target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).stagemix-follow-\(getpid())")
    }

    func run() throws {
        // An output StageMix would not replace is refused now, not after the whole session.
        do {
            try OutputDestination(parsing: out).publisher(overwrite: overwrite, protecting: [URL(fileURLWithPath: capture).standardizedFileURL]).check()
        } catch {
            throw BadInput(error)
        }
        let work = self.work
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = CaptureFolder(path: capture)
        let runner = ChunkProcess()
        let signals = self.signals
        let started = Date()
        let follower = FollowedChunks(capture: source, options: options, runner: runner, work: work, timeoutSeconds: timeoutSeconds)
        let log: FollowedChunks.Log
        do {
            log = try follower.run(shouldStop: { signals.stopRequested }) { recorded, composed in
                FileHandle.standardError.write(Data(String(format: "\rrecorded %.1f s, composed %.1f s", Double(recorded) / 1000, Double(composed) / 1000).utf8))
            }
        } catch let timeout as FollowTimeout {
            FileHandle.standardError.write(Data("\nstagemix: \(timeout)\n".utf8))
            throw ExitCode(75)
        } catch is CancellationError {
            throw ExitCode(signals.exitStatus ?? .interrupted)
        } catch let chunk as ChunkFailure where !chunk.signalled && chunk.status != 0 {
            if let status = signals.exitStatus { throw ExitCode(status) }
            FileHandle.standardError.write(Data("\nstagemix: \(chunk)\n".utf8))
            throw ExitCode(chunk.status)
        }
        FileHandle.standardError.write(Data("\nthe session ended; composing what is left\n".utf8))
        let ended = Date()

        // The whole session, planned as a whole run plans it (a speaker layout listening to every microphone).
        let (finished, _, document) = try CompositionInput.plan(capture: source, options: options,
                                                                speakers: SpeakerAnalysis.planningPass(shouldStop: { signals.stopRequested }))
        try finished.checkStorage()
        for warning in document.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        let ranges = ChunkRun.ranges(plan: document.plan, options: options)
        var kept = 0
        for (index, frames) in ranges.enumerated() {
            // A chunk that met the end of a file still being written took it for the file's end: it lost media a
            // whole run would not, so it is encoded again over the finished files.
            let clean = (try? ChunkResult.read(from: ChunkJob.resultFile(index, in: ChunkRun.chunkFolder(index, in: work))))
                .map { $0.lostMedia.isEmpty && $0.lossNotes.isEmpty } ?? false
            let same = clean && log.ranges[index] == frames && log.encoded[index] == ChunkPlanSlice(plan: document.plan, frames: frames)
            if same { kept += 1 } else { try? FileManager.default.removeItem(at: ChunkRun.chunkFolder(index, in: work)) }
        }
        // The chunks not encoded yet (or again), in order, while the join collects them as they land.
        let missing = ranges.enumerated().filter { !FileManager.default.fileExists(atPath: ChunkRun.chunkFolder($0.offset, in: work).path) }
        let plan = document.plan
        let options = self.options
        let location = source.location
        let failure = FollowFailure()
        let encoderDone = DispatchSemaphore(value: 0)
        let encoder = Thread {
            defer { encoderDone.signal() }
            for (index, frames) in missing {
                if signals.stopRequested || failure.error != nil || failure.joinEnded { return }
                do {
                    try FollowedChunks.encode(index, frames: frames, plan: plan, capture: location, options: options, runner: runner, work: work,
                                              shouldStop: { signals.stopRequested || failure.joinEnded })
                } catch {
                    failure.error = error
                    return
                }
            }
        }
        encoder.start()
        // The thread encoding the last chunks is stopped and waited for on every way out, before the work folder goes.
        defer {
            failure.joinEnded = true
            encoderDone.wait()
        }
        let chunking = Chunking(seconds: options.chunkSeconds ?? 0, jobs: 1, options: options, runner: runner, encodedIn: work)
        var job = ComposeRun(capture: finished, document: document, settings: ComposeSettings(options), chunking: chunking)
        job.followed = FollowReport(chunksWhileRecorded: kept, chunks: ranges.count, maxLagSeconds: Double(log.maxLagMs) / 1000,
                                    versionsRead: log.versions)
        let destination: OutputDestination
        do { destination = try OutputDestination(parsing: out) } catch { throw BadInput(error) }
        let publisher = destination.publisher(overwrite: overwrite, protecting: [finished.directory])
        let report: ComposeRun.Report
        do {
            report = try job.run(publishingWith: publisher, shouldStop: { signals.stopRequested || failure.error != nil })
        } catch {
            // The cause first: a chunk that failed, a signal; then the join's own error.
            if let status = signals.exitStatus {
                FileHandle.standardError.write(Data("stagemix: stopped; \(destination) is as it was\n".utf8))
                throw ExitCode(status)
            }
            if let chunk = failure.error as? ChunkFailure, !chunk.signalled, chunk.status != 0 {
                FileHandle.standardError.write(Data("stagemix: \(chunk)\n".utf8))
                throw ExitCode(chunk.status)
            }
            if let cause = failure.error { throw cause }
            if error is OutputRefusal { throw BadInput(error) }
            throw error
        }
        let summary = String(format: "composed %@ following its recording: %.1f s, %d of %d chunks while it was recorded (lag at most %.1f s), "
                             + "published %.1f s after the session ended -> %@\n",
                             report.sessionId, report.durationSeconds, kept, ranges.count, Double(log.maxLagMs) / 1000,
                             Date().timeIntervalSince(ended), destination.description)
        _ = started
        FileHandle.standardError.write(Data(summary.utf8))
    }
}

/// The first error of the thread encoding the last chunks.
final class FollowFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    private var ended = false
    /// Set when the join is over, however it ended: the encoding thread stops.
    var joinEnded: Bool {
        get { lock.withLock { ended } }
        set { lock.withLock { ended = newValue } }
    }
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
