import ArgumentParser
import StageMixCommandLine
import Foundation
import StageMixOptions
import StageMixCapture
import StageMixPlan
import StageMixPublishing
import StageMixQueue

/// `--queue URL`, shared by the queue commands.
struct QueueOption: ParsableArguments {
    @Option(name: .long, help: "sqlite:PATH or postgres://user:pass@host:port/db.")
    var queue: String = "sqlite:./stagemix-queue.sqlite"

    var url: QueueURL {
        get throws {
            do { return try QueueURL(queue) } catch { throw ValidationError("\(error)") }
        }
    }

    func validate() throws { _ = try url }
}

extension StageMix {
    /// `stagemix enqueue`: adds a compose job; the same spec twice gives the same job.
    struct Enqueue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue a compose job and print its id.",
            discussion: """
                Takes every option compose takes and checks the job as compose would (capture, layout, \
                tables, the output folder) before queueing it. Exit codes: 0 queued, 64 usage error, \
                65 bad input, 70 internal failure, 75 object storage unreachable or failing after the retries.
                """)

        @OptionGroup var plan: PlanOptions
        @OptionGroup var encode: EncodeOptions
        @OptionGroup var target: ComposeTarget
        @Option(help: "Queue the composition as chunks of this many seconds, which any workers take, joined once all are done: a whole multiple of --segment-seconds (docs/chunks.md).")
        var chunkSeconds: Double?
        @Option(name: .customLong("max-attempts"), help: "Attempts before the job is dead (each chunk has as many).") var maxAttempts: Int = 5
        @Flag(help: "Compose the capture while it is recorded (a capture in progress): the job holds a worker for the session and publishes soon after it ends (docs/follow.md).")
        var follow = false
        @OptionGroup var queue: QueueOption

        func validate() throws {
            if !(1...100).contains(maxAttempts) { throw ValidationError("--max-attempts must be between 1 and 100") }
            if follow {
                if plan.capture.contains("://") {
                    throw ValidationError("--follow reads a capture folder on the worker's machine, as it is recorded (not yet s3://)")
                }
                if options.edits != nil { throw ValidationError("--follow does not take --edits: an edit may name any moment of a session not yet recorded") }
            }
            try options.validateForCommandLine()
        }

        var options: ComposeOptions {
            var options = target.options(plan: plan, encode: encode)
            options.chunkSeconds = chunkSeconds
            options.follow = follow ? true : nil
            return options
        }

        func run() async throws {
            try await runReportingErrors {
                let options = self.options
                // A capture in progress is checked as far as it is known, when the job follows it.
                let (capture, _, _) = try CompositionInput.plan(capture: CaptureSources.source(at: plan.capture), options: options,
                                                                inProgress: follow ? .knownSoFar : .refuse)
                do {
                    try OutputDestination(parsing: target.out)
                        .publisher(overwrite: target.overwrite, protecting: [capture.directory]).check()
                } catch {
                    throw BadInput(error)
                }
                let spec = JobSpec(capture: plan.capture, out: target.out, options: options).normalised()
                let result = try await queue.url.withQueue { try await $0.enqueue(spec, maxAttempts: maxAttempts) }
                print(result.id)
            }
        }
    }
}
