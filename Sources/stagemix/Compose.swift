import ArgumentParser
import Foundation
import StageMixCore
import StageMixMedia
import StageMixPipeline

extension StageMix {
    /// `stagemix compose`: the main job.
    struct Compose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compose a capture into HLS with timeline.json and billing.json.",
            discussion: "Exit codes: 0 done, 65 bad input (capture, layout, options), 70 internal failure.")

        @OptionGroup var plan: PlanOptions
        @OptionGroup var encode: EncodeOptions

        @Option(help: "Output directory; written whole or not at all.")
        var out: String

        func run() async throws {
            try await runReportingErrors {
                MediaLog.setLevel(.error)
                let (capture, _, doc) = try plan.planDocument()
                for warning in doc.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
                let job = CompositionJob(capture: capture, document: doc, settings: encode.settings)
                let out = URL(fileURLWithPath: out)
                // Encoding blocks in C for minutes: it gets a thread of its own, not one of Swift's cooperative pool.
                let report = try await onOwnThread(named: "stagemix-encode") {
                    let display = ProgressDisplay()
                    defer { display.finish() }
                    return try job.run(out: out, progress: display.show)
                }
                for (file, why) in report.lostMedia.sorted(by: { $0.key < $1.key }) {
                    FileHandle.standardError.write(Data("warning: lost media \(file): \(why)\n".utf8))
                }
                for line in report.lossSummary() { FileHandle.standardError.write(Data("warning: \(line)\n".utf8)) }
                let summary = String(format: "composed %@: %.1f s in %.1f s (%.1fx) -> %@/hls/index.m3u8\n",
                                     report.sessionId, report.durationSeconds, report.composeSeconds,
                                     report.durationSeconds / max(report.composeSeconds, 0.001), out.path)
                FileHandle.standardError.write(Data(summary.utf8))
            }
        }
    }
}
