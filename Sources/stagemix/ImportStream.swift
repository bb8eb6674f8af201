import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import stream DIR --out CAPTURE`.
    struct StreamVideo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "Stream (GetStream) individual recordings: an MKV per participant and track, with the call.recording_ready webhooks.",
            discussion: """
                DIR is the call's recordings as Stream wrote them (its bucket prefix, or the files downloaded), with \
                Stream's JSON saved as .json or .jsonl files anywhere under it: call.recording_ready webhooks (one \
                per file), a ListRecordings response, call session participant events. A file is tied to its user by \
                its name (..._individual_<user>_<audio_only|video_only|...>_<startMs>.mkv) and placed at its \
                start_time; screenshare_ files are screen shares. Users are shown by user.name where a document gives \
                it, else by id, on stage while in the call and publishing. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the call's MKV files and Stream's JSON.")
        var directory: String

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(StreamImport(), directory: directory)
        }
    }
}
