import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixPipeline
import StageMixPlan

extension StageMix {
    /// `stagemix plan`: timeline, tiles, layers and billing, reading no media but the microphones a
    /// speaker layout listens to.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the stage timeline, the tiles of each interval, layer choices and billing (reading no media, except the microphones for a speaker layout).")

        @OptionGroup var options: PlanOptions

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        func run() throws {
            try runReportingErrors {
                let (_, _, doc) = try options.planDocument(speakers: SpeakerAnalysis.planningPass())
                if json {
                    FileHandle.standardOutput.write(try PlanDocument.encode(doc))
                    FileHandle.standardOutput.write(Data("\n".utf8))
                } else {
                    print(PlanTextReport.render(doc), terminator: "")
                }
            }
        }
    }
}
