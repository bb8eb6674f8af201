import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixOptions
import StageMixMedia
import StageMixPublishing
import StageMixPipeline

extension StageMix {
    /// `stagemix preview`: one frame of the composite as a PNG.
    struct Preview: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a PNG still of the composite at a session time.")

        @OptionGroup var plan: PlanOptions

        @Option(help: "Session time in seconds.")
        var at: Double

        @Option(name: .shortAndLong, help: "The PNG file to write.")
        var output: String = "frame.png"

        @Flag(help: "Replace an existing file at --output.")
        var overwrite = false

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.error)
                let (capture, _, doc) = try plan.planDocument(speakers: SpeakerAnalysis.planningPass())
                let file = OutputFile(target: URL(fileURLWithPath: output), overwrite: overwrite)
                do {
                    try file.write { staging in
                        try StageMixPipeline.Preview.write(capture: capture, plan: doc.plan, atSeconds: at, to: staging)
                    }
                } catch let error as PreviewError {
                    throw BadInput(error)
                } catch let error as OutputRefusal {
                    throw BadInput(error)
                }
                print(output)
            }
        }
    }
}
