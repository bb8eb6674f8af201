import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import 100ms DIR --out CAPTURE` (a Swift name cannot start with a digit).
    struct HundredMs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "100ms",
            abstract: "100ms track recordings: a WebM per track, with the track.recording.success webhooks that name them.",
            discussion: """
                DIR is the session's bucket prefix, with 100ms's JSON saved as .json or .jsonl files anywhere under it: \
                track.recording.success (or track assets) name each file by recording_path; peer.join.success and \
                peer.leave.success give names and presence; track.recording.started.success, session.close.success and \
                the analytics track events (track.add/update/remove.success: screen shares, mutes, started_at) place \
                the tracks better. 100ms gives no start time per file: import.json's alignment says how well each \
                track is placed. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the session's track recordings and 100ms's JSON (a downloaded bucket prefix).")
        var directory: String

        @Option(help: "The session (session_id) to import, when DIR holds several.")
        var session: String?

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(HundredMsImport(session: session), directory: directory)
        }
    }
}
