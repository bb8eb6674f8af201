import ArgumentParser
import Foundation
import StageMixCapture
import StageMixCommandLine
import StageMixMedia
import StageMixOptions
import StageMixPipeline

extension StageMix {
    /// `stagemix replay CAPTURE --out DIR`: a finished capture played out as a capture in progress.
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a finished capture out in real time as a capture in progress, as a recorder writes one (for compose --follow).",
            discussion: """
                Each media file is written again packet by packet as the session's clock passes it (flushed, in a \
                container readable while written; MP4 becomes Matroska), and session.json is replaced every --tick \
                seconds with the events so far and "recording": {"completeToMs": N}; at the end it is the whole \
                document. See docs/capture-format.md, "A capture in progress". SIGINT or SIGTERM stops it, leaving \
                the capture in progress as a recorder that died would. Exit codes: 0 done, 64 usage error, 65 bad \
                input, 73 --out exists.
                """)

        @Argument(help: "The finished capture to play out (a folder).")
        var capture: String

        @Option(help: "The capture in progress to write: a new folder.")
        var out: String

        @Option(help: "How fast the session's clock runs, in times real time.")
        var speed: Double = 1

        @Option(help: "Seconds (real time) between versions of session.json.")
        var tick: Double = 1

        func validate() throws {
            guard speed.isFinite, speed >= 0.1, speed <= 1000 else { throw ValidationError("--speed must be between 0.1 and 1000; got \(speed)") }
            guard tick.isFinite, tick >= 0.1, tick <= 60 else { throw ValidationError("--tick must be between 0.1 and 60 seconds; got \(tick)") }
        }

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let finished: Capture
                do { finished = try CaptureFolder(path: capture).capture() } catch { throw BadInput(error) }
                let folder = URL(fileURLWithPath: out).standardizedFileURL
                // A new folder only (its parents are made): what is there already was not written by this run.
                try? FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard mkdir(folder.path, 0o755) == 0 else {
                    let reason = errno == EEXIST ? "it already exists; give a new folder" : String(cString: strerror(errno))
                    try? FileHandle.standardError.write(contentsOf: Data("stagemix replay: cannot make --out \(out): \(reason)\n".utf8))
                    throw ExitCode(73)
                }
                let signals = StopSignals()
                let replay = CaptureReplay(capture: finished, into: folder, speed: speed, tickSeconds: tick)
                let summary = try replay.run(shouldStop: { signals.stopRequested }) { completeToMs in
                    try? FileHandle.standardError.write(contentsOf: Data(String(format: "\rrecorded %.1f s", Double(completeToMs) / 1000).utf8))
                }
                try? FileHandle.standardError.write(contentsOf: Data("\n".utf8))
                if signals.stopRequested {
                    try? FileHandle.standardError.write(contentsOf: Data("stopped: \(out) stays a capture in progress\n".utf8))
                    throw ExitCode(signals.exitStatus ?? .interrupted)
                }
                print("replayed \(finished.sessionId) to \(out): \(summary.files) files, \(summary.packets) packets, "
                      + "\(summary.versions) versions of session.json over \(String(format: "%.1f", Double(summary.endMs) / 1000)) s")
            }
        }
    }
}
