import ArgumentParser
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
}

extension StageMix {
    /// `stagemix enqueue`: adds a compose job; the same spec twice gives the same job.
    struct Enqueue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue a compose job and print its id.")

        @Argument(help: "The capture directory to compose.") var capture: String
        @Option(help: "Output directory.") var out: String
        @Option(help: "Layout name or file.") var layout: String?
        @Option(help: "Output size, WxH.") var resolution: String?
        @Option var fps: Int?
        @Option(name: .customLong("segment-seconds")) var segmentSeconds: Double?
        @Option(name: .customLong("segment-format"), help: "ts or fmp4.") var segmentFormat: String?
        @Option var preset: String?
        @Option(name: .customLong("video-bitrate")) var videoBitrate: String?
        @Option var crf: Int?
        @Option(name: .customLong("audio-bitrate")) var audioBitrate: String?
        @Option(name: .customLong("max-attempts"), help: "Attempts before the job is dead.") var maxAttempts: Int = 5
        @OptionGroup var queue: QueueOption

        func validate() throws {
            if videoBitrate != nil && crf != nil { throw ValidationError("use --video-bitrate or --crf, not both") }
            if let segmentFormat, !["ts", "fmp4"].contains(segmentFormat) { throw ValidationError("--segment-format is ts or fmp4") }
            if maxAttempts < 1 { throw ValidationError("--max-attempts must be at least 1") }
        }

        func run() async throws {
            let spec = JobSpec(
                capture: capture, out: out, layout: layout, resolution: resolution, fps: fps,
                segmentSeconds: segmentSeconds, segmentFormat: segmentFormat, preset: preset,
                videoBitrate: videoBitrate, crf: crf, audioBitrate: audioBitrate
            )
            let result = try await queue.url.withQueue { try await $0.enqueue(spec, maxAttempts: maxAttempts) }
            print(result.id)
        }
    }
}
