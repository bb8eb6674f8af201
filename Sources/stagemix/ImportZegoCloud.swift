import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import zegocloud DIR --out CAPTURE`.
    struct ZegoCloud: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "zegocloud",
            abstract: "ZEGOCLOUD single-stream cloud recording (RecordMode 1): mp4, flv or hls files, with the status callback's file_info.",
            discussion: """
                DIR is the recording's bucket prefix as ZEGOCLOUD wrote it, with the recording status callback \
                (detail.file_info) or the DescribeRecordStatus response (Data.RecordFiles) saved as .json or .jsonl \
                files anywhere under it; file_url is matched to DIR's files by trailing path. Each file is placed at \
                its begin_timestamp; a video file and its separate aac (StreamType 4) are one user's camera and \
                microphone; a stream id ending in _screensharing is a screen share; an hls playlist's segments are \
                joined. Every user is shown by user_name, on stage while publishing; a file that failed (status 5) or \
                is missing is lost media. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the recording's files and ZEGOCLOUD's JSON (a downloaded bucket prefix).")
        var directory: String

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(ZegoCloudImport(), directory: directory)
        }
    }
}
