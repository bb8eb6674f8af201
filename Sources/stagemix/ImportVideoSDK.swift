import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import videosdk DIR --out CAPTURE`.
    struct VideoSDK: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "videosdk",
            abstract: "VideoSDK participant track recordings: WebM files under <sessionId>/<participantId>/<kind>/.",
            discussion: """
                DIR is the session's bucket prefix, with VideoSDK's JSON saved as .json or .jsonl files anywhere under it: \
                participant-track-recording-stopped webhooks (fileDetails[].filePath), the track recording objects \
                (start, end, participantName, files) and the session's participants (name, timelog). A new file after \
                an unmute or camera restart continues the same track after a mute; each kind's files are placed by \
                their recording's start and end, and import.json's alignment says how well. Exit codes: 0 done, \
                64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the session's track recordings and VideoSDK's JSON (a downloaded bucket prefix).")
        var directory: String

        @Option(help: "The session (sessionId) to import, when DIR holds several.")
        var session: String?

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(VideoSDKImport(session: session), directory: directory)
        }
    }
}
