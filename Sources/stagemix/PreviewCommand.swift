import ArgumentParser
import Foundation
import StageMixMedia
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

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.error)
                let (capture, _, doc) = try plan.planDocument()
                do {
                    try StageMixPipeline.Preview.write(capture: capture, plan: doc.plan, atSeconds: at,
                                                       to: URL(fileURLWithPath: output))
                } catch let error as PreviewError {
                    throw BadInput(error)
                }
                print(output)
            }
        }
    }
}
