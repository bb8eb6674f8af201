import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixOptions
import StageMixMedia
import StageMixProbe
import StageMixCapture

extension StageMix {
    /// `stagemix probe`: the lobby check of a capture's media.
    struct Probe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that every track layer opens and decodes; report codec, size, rate, length, first keyframe and silent microphones.",
            discussion: "Exit status 0 when every file passes, 1 when a file cannot be opened or decoded or a microphone is silent, 65 for an invalid capture.")

        @Argument(help: "The capture: a folder holding session.json, or an s3://bucket/prefix holding it.")
        var capture: String

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        @Option(help: "Video frames to decode per layer.")
        var frames: Int = 5

        @Option(help: "A microphone whose peak stays below this level (dBFS) is silent.")
        var silenceThreshold: Double = -60

        func validate() throws {
            if frames < 1 { throw ValidationError("--frames must be at least 1") }
        }

        func run() throws {
            var failed = false
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let probe = CaptureProbe(framesToDecode: frames, silenceThresholdDbfs: silenceThreshold)
                let report: ProbeReport
                let read: Capture
                do { read = try CaptureSources.source(at: capture).capture() } catch { throw BadInput(error) }
                report = probe.probe(read)
                // A store that failed a read is not a file that does not open.
                try read.checkStorage()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    try writeStandardOutput(encoder.encode(report) + Data("\n".utf8))
                } else {
                    print(ProbeTextReport.render(report), terminator: "")
                }
                failed = !report.problems.isEmpty
            }
            if failed { throw ExitCode.failure }
        }
    }
}
