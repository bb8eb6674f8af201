import StageMixMedia

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

    /// Streaming platforms play at -14 to -16 LUFS; -16 leaves headroom for speech.
    public static let defaultLoudnessLUFS = -16.0

    public init(segmentSeconds: Double = 4, segmentFormat: HLSMuxer.SegmentType = .mpegts,
                preset: String = "veryfast", videoRate: VideoRate = .bitrate(3_000_000),
                audioBitrate: Int = 128_000, encoderThreads: Int = 0,
                loudnessLUFS: Double? = ComposeSettings.defaultLoudnessLUFS, mp4: Bool = false,
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
}
