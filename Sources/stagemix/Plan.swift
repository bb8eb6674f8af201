import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixPipeline
import StageMixOptions
import StageMixPlan
import StageMixPublishing
import StageMixReportPage

extension StageMix {
    /// `stagemix plan`: timeline, tiles, layers and billing, reading no media but the microphones a
    /// speaker layout listens to.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the stage timeline, the tiles of each interval, layer choices and billing (reading no media, except the microphones for a speaker layout).")

        @OptionGroup var options: PlanOptions

        @Flag(help: "Print JSON instead of tables.")
        var json = false

        @Option(help: ArgumentHelp("Also write the session's page (report.html without a player) to this file.", valueName: "file"))
        var html: String?

        @Flag(help: "With --html, replace the file if it exists.")
        var overwrite = false

        func run() throws {
            try runReportingErrors {
                // A capture still being recorded is planned as far as it is known, and the plan says so.
                let (capture, _, doc) = try options.planDocument(inProgress: .knownSoFar, speakers: SpeakerAnalysis.planningPass())
                if let html {
                    do {
                        try OutputFile(target: URL(fileURLWithPath: html), overwrite: overwrite).write { staging in
                            try Data(ReportPage(document: doc, capture: capture).html().utf8).write(to: staging)
                        }
                    } catch let error as OutputRefusal {
                        throw BadInput(error)
                    }
                }
                if json {
                    try writeStandardOutput(PlanDocument.encode(doc) + Data("\n".utf8))
                } else {
                    print(PlanTextReport.render(doc, trackNames: TrackDisplayNames(capture: capture)), terminator: "")
                }
            }
        }
    }
}
