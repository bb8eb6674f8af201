import ArgumentParser
import StageMixImport

extension StageMix.Import {
    /// `stagemix import agora DIR --out CAPTURE`.
    struct Agora: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "agora",
            abstract: "Agora Cloud Recording, individual mode (mode=individual or mode=raw): its .m3u8 playlists and TS slices.",
            discussion: """
                DIR is the recording's bucket prefix as Agora wrote it, with any of Agora's JSON saved as .json or .jsonl \
                files anywhere under it (the stop response or uploaded callback's fileList, recorder_slice_start events). \
                Each slice is placed at the UTC time in its name; slices that continue one another are decoded as one \
                stream, a gap between them is a gap on stage; bak<n>_ files after a failover and backup playlists \
                are merged; EXT-X-AGORA-ROTATE turns the picture. Every uid is shown by its uid, on stage while \
                publishing. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the recording's playlists and slices (a downloaded bucket prefix), or the s3:// prefix itself.")
        var directory: String

        @Option(help: "The recording (sid) to import, when DIR holds several.")
        var sid: String?

        @OptionGroup var target: ImportTarget

        func run() throws {
            try target.run(AgoraImport(sid: sid), directory: directory)
        }
    }
}
