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

    public init(segmentSeconds: Double = 4, segmentFormat: HLSMuxer.SegmentType = .mpegts,
                preset: String = "veryfast", videoRate: VideoRate = .bitrate(3_000_000),
                audioBitrate: Int = 128_000, encoderThreads: Int = 0) {
        self.segmentSeconds = segmentSeconds
        self.segmentFormat = segmentFormat
        self.preset = preset
        self.videoRate = videoRate
        self.audioBitrate = audioBitrate
        self.encoderThreads = encoderThreads
    }
}
