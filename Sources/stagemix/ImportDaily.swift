import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import daily DIR --out CAPTURE`.
    struct Daily: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "daily",
            abstract: "Daily raw-tracks recordings: a WebM per track (<recordingStartMs>-<sessionId>-<cam|screen>-<video|audio>-<trackStartMs>.webm).",
            discussion: """
                DIR is the recording's bucket prefix as Daily wrote it, with any of Daily's JSON saved as .json or .jsonl \
                files anywhere under it (the recording.ready-to-download webhook, the recording's event JSON). Each file \
                is placed by its own timestamps, which count from the recording's start; every participant is shown by \
                the displayName of Daily's events (else their session id), on stage while publishing; screen-video and \
                screen-audio are screen shares; Daily's pause events, and gaps of more than a second in a camera or \
                microphone file, are mutes. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the recording's .webm files (a downloaded bucket prefix).")
        var directory: String

        @Option(help: "The recording to import (its start in the file names, or its recording_id), when DIR holds several.")
        var recording: String?

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(DailyImport(recording: recording), directory: directory)
        }
    }
}
