import ArgumentParser
import StageMixMedia
import StageMixPipeline

/// Encoding and segmenting options of `compose` (and of jobs enqueued for it).
struct EncodeOptions: ParsableArguments {
    @Option(help: "HLS segment length in seconds.")
    var segmentSeconds: Double = 4

    @Option(help: "HLS segment container: ts or fmp4.")
    var segmentFormat: String = "ts"

    @Option(help: "x264 preset (ultrafast ... veryslow).")
    var preset: String = "veryfast"

    @Option(help: "Video bitrate, such as 3000k or 3M (default 3000k unless --crf).")
    var videoBitrate: String?

    @Option(help: "x264 constant rate factor (0-51), instead of a bitrate.")
    var crf: Double?

    @Option(help: "AAC bitrate, such as 128k.")
    var audioBitrate: String = "128k"

    @Option(help: "x264 threads; 0 lets x264 choose.")
    var encoderThreads: Int = 0

    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    func validate() throws {
        if !(0.5...60).contains(segmentSeconds) { throw ValidationError("--segment-seconds must be between 0.5 and 60") }
        if HLSMuxer.SegmentType(option: segmentFormat) == nil { throw ValidationError("--segment-format must be ts or fmp4") }
        if !Self.presets.contains(preset) { throw ValidationError("--preset must be one of \(Self.presets.joined(separator: ", "))") }
        if videoBitrate != nil, crf != nil { throw ValidationError("give --video-bitrate or --crf, not both") }
        if let videoBitrate, Self.bitrate(videoBitrate) == nil { throw ValidationError("--video-bitrate must look like 3000k or 3M") }
        if let crf, !(0...51).contains(crf) { throw ValidationError("--crf must be between 0 and 51") }
        if Self.bitrate(audioBitrate) == nil { throw ValidationError("--audio-bitrate must look like 128k") }
        if !(0...64).contains(encoderThreads) { throw ValidationError("--encoder-threads must be between 0 and 64") }
    }

    var settings: ComposeSettings {
        ComposeSettings(
            segmentSeconds: segmentSeconds, segmentFormat: HLSMuxer.SegmentType(option: segmentFormat) ?? .mpegts,
            preset: preset,
            videoRate: crf.map { .crf($0) } ?? .bitrate(videoBitrate.flatMap(Self.bitrate) ?? 3_000_000),
            audioBitrate: Self.bitrate(audioBitrate) ?? 128_000, encoderThreads: encoderThreads)
    }

    /// Parses `3000k`, `3M`, `128000`.
    static func bitrate(_ text: String) -> Int? {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("k") ? (lower.dropLast(), 1_000)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let value = Double(digits), value > 0 else { return nil }
        return Int(value * scale)
    }
}

extension HLSMuxer.SegmentType {
    init?(option: String) {
        switch option {
        case "ts", "mpegts": self = .mpegts
        case "fmp4", "mp4": self = .fmp4
        default: return nil
        }
    }
}
