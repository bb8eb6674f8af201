public import StageMixMedia
public import StageMixOptions

/// How a composition is encoded and segmented.
public struct ComposeSettings: Sendable {
    /// Rate control for the x264 video.
    public enum VideoRate: Sendable, Equatable {
        case bitrate(Int)
        case crf(Double)
    }

    public var segmentSeconds: Double
    public var segmentFormat: HLSMuxer.SegmentType
    public var preset: String
    public var videoRate: VideoRate
    public var audioBitrate: Int
    /// Encoder threads; 0 lets x264 choose.
    public var encoderThreads: Int
    /// Integrated loudness the output is normalised to, in LUFS; nil leaves the mix as it is.
    public var loudnessLUFS: Double?
    /// Also write `composition.mp4` beside `hls/`, from the same packets.
    public var mp4: Bool
    /// A thumbnail every this many seconds, with `poster.jpg` and `thumbnails.vtt`; nil for none.
    public var thumbnailSeconds: Double?
    /// An ABR ladder, largest first (the canvas's size); empty for the single rendition at the
    /// canvas's size and `videoRate`, muxed with the audio in one playlist.
    public var renditions: [Rendition]

    /// Every setting given; the defaults are ``ComposeOptions``'s, as `ComposeSettings(ComposeOptions())` has them.
    public init(segmentSeconds: Double = ComposeOptions.defaultSegmentSeconds,
                segmentFormat: HLSMuxer.SegmentType = ComposeSettings.segmentType(ComposeOptions.defaultSegmentFormat),
                preset: String = ComposeOptions.defaultPreset,
                videoRate: VideoRate = .bitrate(ComposeOptions.defaultVideoBitrate),
                audioBitrate: Int = ComposeOptions.defaultAudioBitrate,
                encoderThreads: Int = ComposeOptions.defaultEncoderThreads,
                loudnessLUFS: Double? = ComposeOptions.defaultLoudnessLUFS, mp4: Bool = false,
                thumbnailSeconds: Double? = nil, renditions: [Rendition] = []) {
        self.segmentSeconds = segmentSeconds
        self.segmentFormat = segmentFormat
        self.preset = preset
        self.videoRate = videoRate
        self.audioBitrate = audioBitrate
        self.encoderThreads = encoderThreads
        self.loudnessLUFS = loudnessLUFS
        self.mp4 = mp4
        self.thumbnailSeconds = thumbnailSeconds
        self.renditions = renditions
    }

    /// The encoder settings of validated options, defaults filled in.
    public init(_ options: ComposeOptions) {
        self.init(
            segmentSeconds: options.segmentSecondsOrDefault,
            segmentFormat: Self.segmentType(options.segmentFormatOrDefault),
            preset: options.presetOrDefault,
            videoRate: options.crf.map { .crf($0) } ?? .bitrate(options.videoBitrateOrDefault),
            audioBitrate: options.audioBitrateOrDefault,
            encoderThreads: options.encoderThreadsOrDefault,
            loudnessLUFS: options.loudnessTarget,
            mp4: options.mp4OrDefault,
            thumbnailSeconds: options.thumbnails,
            renditions: (options.ladder ?? []).map {
                Rendition(width: $0.width, height: $0.height, rate: .bitrate($0.bitrate), fps: $0.fps)
            })
    }

    /// `--segment-format`'s name (`ts`, `fmp4`) as the muxer's segment type.
    public static func segmentType(_ name: String) -> HLSMuxer.SegmentType { name == "fmp4" ? .fmp4 : .mpegts }
}
