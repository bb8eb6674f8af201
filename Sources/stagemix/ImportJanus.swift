import ArgumentParser
import Foundation
import StageMixCommandLine
import StageMixImport
import StageMixMedia
import StageMixOptions

extension StageMix.Import {
    /// `stagemix import janus DIR --events FILE --out CAPTURE`.
    struct Janus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "janus",
            abstract: "A Janus VideoRoom room: the .mjr recordings and the sample event handler's events.",
            discussion: """
                Each .mjr is read natively (no janus-pp-rec) into a media file of the capture, placed by its own \
                first-packet time. The events (what janus.eventhandler.sampleevh posted, one JSON value per line) \
                say who published when: every publisher is on stage while publishing, unless --stage names who is. \
                With --follow, the room is imported while Janus records it: the recordings and the events are read as \
                they grow, and --out (a new folder) is a capture in progress for compose --follow, its session.json \
                replaced about once a second, until the room ends (see docs/import.md). SIGINT or SIGTERM stops it, \
                leaving the capture in progress. \
                Exit codes: 0 done, 64 usage error, 65 bad input, 73 --out exists (--follow), 75 Janus stopped writing (--follow).
                """)

        @Argument(help: "The folder holding the room's .mjr recordings (Janus's rec_dir).")
        var directory: String

        @Option(help: "The sample event handler's events, one JSON value (an event or an array of them) per line.")
        var events: String

        @Option(help: "The VideoRoom room to import [the one room the recordings are of].")
        var room: String?

        @Option(help: "Comma-separated display names or VideoRoom ids of who is on stage [every publisher].")
        var stage: String?

        @OptionGroup var target: ImportTarget

        @Flag(help: "Import the room while Janus records it, as a capture in progress (for compose --follow).")
        var follow = false

        @Option(help: "With --follow: seconds Janus may add nothing (no recording grows, no event) before giving up with exit 75.")
        var followTimeout: Double = 120

        func validate() throws {
            guard followTimeout.isFinite, followTimeout >= 1, followTimeout <= 86_400 else {
                throw ValidationError("--follow-timeout must be between 1 and 86400 seconds; got \(followTimeout)")
            }
            if follow, target.overwrite { throw ValidationError("--follow writes a new folder; --overwrite cannot be used with it") }
            if follow, target.out.contains("://") { throw ValidationError("--follow writes a folder on this machine; got --out \(target.out)") }
        }

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let janus = JanusImport(directory: URL(fileURLWithPath: directory), events: URL(fileURLWithPath: events), room: room,
                                        stage: stage.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
                if follow { return try runFollowing(janus) }
                try target.write(making: { staging in try janus.write(into: staging) })
            }
        }

        private func runFollowing(_ janus: JanusImport) throws {
            let folder = URL(fileURLWithPath: target.out).standardizedFileURL
            // A new folder only (its parents are made): what is there already was not written by this run.
            try? FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard mkdir(folder.path, 0o755) == 0 else {
                let reason = errno == EEXIST ? "it already exists; give a new folder" : String(cString: strerror(errno))
                try? FileHandle.standardError.write(contentsOf: Data("stagemix import janus: cannot make --out \(target.out): \(reason)\n".utf8))
                throw ExitCode(73)
            }
            let signals = StopSignals()
            let summary: JanusFollow.Summary
            do {
                summary = try JanusFollow(janus, into: folder, timeoutSeconds: followTimeout).run(shouldStop: { signals.stopRequested }) { completeToMs in
                    try? FileHandle.standardError.write(contentsOf: Data(String(format: "\rrecorded %.1f s", Double(completeToMs) / 1000).utf8))
                }
            } catch let stalled as JanusFollow.Stalled {
                try? FileHandle.standardError.write(contentsOf: Data("\nstagemix import janus: \(stalled)\n".utf8))
                throw ExitCode(75)
            } catch let error as ImportError {
                throw BadInput(error)
            }
            try? FileHandle.standardError.write(contentsOf: Data("\n".utf8))
            if signals.stopRequested {
                try? FileHandle.standardError.write(contentsOf: Data("stopped: \(target.out) stays a capture in progress\n".utf8))
                throw ExitCode(signals.exitStatus ?? .interrupted)
            }
            for warning in summary.warnings { try? FileHandle.standardError.write(contentsOf: Data("warning: \(warning)\n".utf8)) }
            print("imported janus room to \(target.out) while recorded: \(summary.tracks) tracks from \(summary.recordings) recordings, "
                  + "\(summary.versions) versions of session.json, \(String(format: "%.1f", Double(summary.endMs) / 1000)) s")
        }
    }
}
