import ArgumentParser
import StageMixMedia
import StageMixOptions
import StageMixPipeline

/// Encoding and segmenting options of `compose` and `enqueue`, declared here once; the values live
/// in ``ComposeOptions``.
struct EncodeOptions: ParsableArguments {
    @Option(help: "HLS segment length in seconds. Default: 4.")
    var segmentSeconds: Double?

    @Option(help: "HLS segment container: ts or fmp4. Default: ts.")
    var segmentFormat: String?

    @Option(help: "x264 preset (\(ComposeOptions.presets.joined(separator: ", "))). Default: veryfast.")
    var preset: String?

    @Option(help: "Video bitrate, such as 3000k or 3M (default 3000k unless --crf).")
    var videoBitrate: String?

    @Option(help: "x264 constant rate factor (0-51), instead of a bitrate.")
    var crf: Double?

    @Option(help: "AAC bitrate, such as 128k. Default: 128k.")
    var audioBitrate: String?

    @Option(help: "x264 threads; 0 lets x264 choose. Default: 0.")
    var encoderThreads: Int?

    // Unconditional: the value is negative (-16), which would otherwise read as an option.
    @Option(parsing: .unconditional, help: "Integrated loudness target in LUFS (EBU R 128, true peak at most -1 dBTP), or off. Default: -16.")
    var loudness: String?

    /// These options' part of ``ComposeOptions``.
    func apply(to options: inout ComposeOptions) {
        options.segmentSeconds = segmentSeconds
        options.segmentFormat = segmentFormat
        options.preset = preset
        options.videoBitrate = videoBitrate
        options.crf = crf
        options.audioBitrate = audioBitrate
        options.encoderThreads = encoderThreads
        options.loudness = loudness
    }

    func validate() throws {
        var options = ComposeOptions()
        apply(to: &options)
        try options.validateForCommandLine()
    }
}

extension ComposeSettings {
    /// The encoder settings of validated options, defaults filled in.
    init(_ options: ComposeOptions) {
        self.init(
            segmentSeconds: options.segmentSeconds ?? ComposeOptions.defaultSegmentSeconds,
            segmentFormat: options.segmentFormat == "fmp4" ? .fmp4 : .mpegts,
            preset: options.preset ?? ComposeOptions.defaultPreset,
            videoRate: options.crf.map { .crf($0) }
                ?? .bitrate(options.videoBitrate.flatMap(ComposeOptions.bitrate) ?? ComposeOptions.defaultVideoBitrate),
            audioBitrate: options.audioBitrate.flatMap(ComposeOptions.bitrate) ?? ComposeOptions.defaultAudioBitrate,
            encoderThreads: options.encoderThreads ?? 0,
            loudnessLUFS: options.loudnessTarget)
    }
}
