import ArgumentParser
import Foundation
import StageMixCommandLine
import StageMixImport
import StageMixMedia

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
                Exit codes: 0 done, 64 usage error, 65 bad input.
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

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let janus = JanusImport(directory: URL(fileURLWithPath: directory), events: URL(fileURLWithPath: events), room: room,
                                        stage: stage.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
                try target.write(making: { staging in try janus.write(into: staging) })
            }
        }
    }
}
