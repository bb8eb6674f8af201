public import ArgumentParser
public import StageMixOptions

/// Encoding and segmenting options of `compose` and `enqueue`, declared here once; the values live
/// in ``ComposeOptions``.
public struct EncodeOptions: ParsableArguments {
    @Option(help: "HLS segment length in seconds. Default: \(ComposeOptions.plain(ComposeOptions.defaultSegmentSeconds)).")
    public var segmentSeconds: Double?

    @Option(help: "HLS segment container: \(ComposeOptions.segmentFormats.joined(separator: " or ")). Default: \(ComposeOptions.defaultSegmentFormat).")
    public var segmentFormat: String?

    @Option(help: "x264 preset (\(ComposeOptions.presets.joined(separator: ", "))). Default: \(ComposeOptions.defaultPreset).")
    public var preset: String?

    @Option(help: "Video bitrate, such as 3000k or 3M (default \(ComposeOptions.defaultVideoBitrate / 1000)k unless --crf).")
    public var videoBitrate: String?

    @Option(help: "x264 constant rate factor (0-51), instead of a bitrate.")
    public var crf: Double?

    @Option(help: "AAC bitrate, such as 128k. Default: \(ComposeOptions.defaultAudioBitrate / 1000)k.")
    public var audioBitrate: String?

    @Option(help: "x264 threads; 0 lets x264 choose. Default: \(ComposeOptions.defaultEncoderThreads).")
    public var encoderThreads: Int?

    // Unconditional: the value is negative (-16), which would otherwise read as an option.
    @Option(parsing: .unconditional, help: "Integrated loudness target in LUFS (EBU R 128, true peak at most -1 dBTP), or off. Default: \(ComposeOptions.plain(ComposeOptions.defaultLoudnessLUFS)).")
    public var loudness: String?

    @Flag(help: "Also write composition.mp4: progressive (moov first), muxed from the same encoded packets as the HLS.")
    public var mp4 = false

    @Option(help: "A thumbnail every N seconds (thumbnails/, thumbnails.vtt for scrubbing, poster.jpg), from 1 to 3600.")
    public var thumbnails: Double?

    @Option(help: "An ABR ladder from one composite, such as 1920x1080@6000k,1280x720@3000k,640x360@800k (WxH@BITRATE[@FPS]): a master playlist, one media playlist per rendition, one audio rendition. Composed at the largest.")
    public var renditions: String?

    public init() {}

    /// These options' part of ``ComposeOptions``.
    public func apply(to options: inout ComposeOptions) {
        options.segmentSeconds = segmentSeconds
        options.segmentFormat = segmentFormat
        options.preset = preset
        options.videoBitrate = videoBitrate
        options.crf = crf
        options.audioBitrate = audioBitrate
        options.encoderThreads = encoderThreads
        options.loudness = loudness
        options.mp4 = mp4 ? true : nil
        options.thumbnails = thumbnails
        options.renditions = renditions
    }

    public func validate() throws {
        var options = ComposeOptions()
        apply(to: &options)
        try options.validateForCommandLine()
    }
}
