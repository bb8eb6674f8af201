/// How to configure a `VideoEncoder`: codec, picture size, rate control, GOP.
public struct VideoEncoderSettings: Sendable {
    /// Rate control: constant quality, or a target bitrate with VBV limits.
    public enum RateControl: Sendable {
        case crf(Double)
        /// Bits per second; `maxRate`/`bufferSize` of 0 leave them unset.
        case bitrate(Int, maxRate: Int = 0, bufferSize: Int = 0)
    }

    /// libavcodec encoder name: "libx264", "libvpx" (VP8) or "libvpx-vp9".
    public var codecName: String
    public var width: Int
    public var height: Int
    /// Frames per second; frame timestamps are counted in 1/frameRate units.
    public var frameRate: Rational
    public var rateControl: RateControl
    /// Frames between forced keyframes (keyint); 0 keeps the encoder default.
    public var gopSize: Int
    /// x264 preset ("veryfast" ...) or libvpx "deadline" ("realtime"/"good").
    public var preset: String?
    /// x264 tune ("zerolatency", "film" ...).
    public var tune: String?
    /// Encoder threads; 0 lets libavcodec choose.
    public var threadCount: Int
    /// Put codec headers (SPS/PPS) in extradata, as MP4, WebM and fMP4 need.
    public var globalHeader: Bool
    /// Further codec-private options, e.g. ["cpu-used": "8"].
    public var options: [String: String]
    /// How the pictures' values are to be read, written into the stream's colour tags.
    public var colourSpace: YUVColourSpace

    public init(codecName: String, width: Int, height: Int, frameRate: Rational,
                rateControl: RateControl = .crf(23), gopSize: Int = 0, preset: String? = nil,
                tune: String? = nil, threadCount: Int = 0, globalHeader: Bool = true,
                options: [String: String] = [:], colourSpace: YUVColourSpace = .bt709) {
        self.codecName = codecName
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.rateControl = rateControl
        self.gopSize = gopSize
        self.preset = preset
        self.tune = tune
        self.threadCount = threadCount
        self.globalHeader = globalHeader
        self.options = options
        self.colourSpace = colourSpace
    }
}
