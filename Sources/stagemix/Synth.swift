import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixOptions
import StageMixCapture
import StageMixMedia
import StageMixPublishing
import StageMixSynth

extension StageMix {
    /// `stagemix synth`: writes a real capture (media, session.json, expected.json) from a scenario.
    struct Synth: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Synthesize a capture from a scenario: solid-colour cameras with a moving marker, sine-tone mics.",
            discussion: "Built-in scenarios: \(Scenario.builtinNames.joined(separator: ", ")). See docs/synth.md for the JSON format.")

        @Argument(help: "A built-in scenario name or a scenario JSON file.")
        var scenario: String

        @Option(help: "The capture directory to write; written whole, never over a folder StageMix did not write.")
        var out: String

        @Flag(help: "Replace a capture StageMix synthesized earlier at --out.")
        var overwrite = false

        @Option(help: "Video codec: vp8 (WebM) or h264 (MP4).")
        var codec: String = SynthCodec.vp8.rawValue

        @Option(help: "Session length in seconds; events after it are dropped.")
        var duration: Double?

        @Option(help: "Files encoded at the same time. Default: one per core.")
        var jobs: Int?

        func validate() throws {
            if SynthCodec(rawValue: codec) == nil { throw ValidationError("--codec must be vp8 or h264; got \(codec)") }
            if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        }

        func run() throws {
            try runReportingErrors {
                var scenario: Scenario
                do { scenario = try Scenario.resolve(self.scenario) } catch { throw BadInput(error) }
                if let duration { scenario = scenario.withDuration(Int((duration * 1000).rounded())) }
                var synthesizer = CaptureSynthesizer(codec: SynthCodec(rawValue: codec)!)
                if let jobs { synthesizer.concurrency = jobs }
                MediaLog.setLevel(.error)
                let started = Date()
                // Staged and published as compose's output is: a real capture or any folder StageMix did not write is never touched.
                let expected: ExpectedMedia
                do {
                    let publisher = try OutputDestination(parsing: out).publisher(overwrite: overwrite)
                    expected = try publisher.publishStaged { staging in try synthesizer.synthesize(scenario, to: staging) }
                } catch let error as OutputRefusal {
                    throw BadInput(error)
                } catch let error as SynthError {
                    throw BadInput(error)
                } catch let error as StageMixCapture.CaptureError {
                    throw BadInput(error)
                }
                let files = expected.tracks.reduce(0) { $0 + ($1.layers?.count ?? 1) }
                print("wrote \(out): \(expected.tracks.count) tracks, \(files) media files, "
                      + "\(expected.durationMs / 1000) s, \(expected.codec), in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
            }
        }
    }
}
