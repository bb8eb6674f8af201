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
        static let configuration = CommandConfiguration(abstract: "Write a still (PNG or JPEG, by the file name) of the composite at a session time.")

        @OptionGroup var plan: PlanOptions

        @Option(parsing: .unconditional, help: "Session time in seconds (as edit files and timeline events count it).")
        var at: Double

        @Option(name: .shortAndLong, help: "The file to write: .png or .jpg.")
        var output: String = "frame.png"

        @Flag(help: "Replace an existing file at --output.")
        var overwrite = false

        func validate() throws {
            guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a session time in seconds, 0 or more; got \(at)") }
            guard StageMixPipeline.Preview.Format(fileName: output) != nil else {
                throw ValidationError("--output \(output): preview writes PNG (.png) or JPEG (.jpg, .jpeg); name the file with one of those")
            }
        }

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.error)
                let (capture, _, doc) = try plan.planDocument(speakers: SpeakerAnalysis.planningPass())
                let file = OutputFile(target: URL(fileURLWithPath: output), overwrite: overwrite)
                do {
                    try file.write { staging in
                        try StageMixPipeline.Preview.write(capture: capture, plan: doc.plan, output: doc.timeline.output,
                                                           atSessionSeconds: at, format: StageMixPipeline.Preview.Format(fileName: output) ?? .png,
                                                           to: staging)
                        // A store that failed a read is not a missing picture: nothing is written.
                        try capture.checkStorage()
                    }
                } catch let error as PreviewError {
                    // An instant the session does not have is a value of --at: a usage error, as README says.
                    throw OptionError("--at", error.message)
                } catch let error as OutputRefusal {
                    throw BadInput(error)
                }
                print(output)
            }
        }
    }
}
