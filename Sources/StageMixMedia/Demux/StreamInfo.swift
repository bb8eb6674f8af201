internal import CFFmpeg

/// A description of one stream in a container, as the demuxer found it.
/// Pass it to `VideoDecoder`, `AudioDecoder` or `OpusDecoder` to decode the stream.
public struct StreamInfo: Sendable {
    public let index: Int
    public let mediaType: MediaType
    /// FFmpeg's short codec name, e.g. "vp8", "h264", "opus", "aac".
    public let codecName: String
    public let width: Int
    public let height: Int
    /// Average frame rate when known (video only).
    public let frameRate: Rational?
    public let timeBase: Rational
    /// Stream duration in seconds when the container says.
    public let duration: Double?
    /// Timestamp of the first sample in `timeBase`, when known.
    public let startTime: Int64?
    public let sampleRate: Int
    public let channels: Int
    /// How pictures are turned to be shown (an MP4 display matrix); upright for most streams.
    public let orientation: DisplayOrientation
    /// Codec-specific header bytes (e.g. OpusHead, avcC).
    public var extradata: [UInt8] { parameters.extradata }

    let parameters: CodecParameters

    init(stream: UnsafeMutablePointer<AVStream>) throws(MediaError) {
        let st = stream.pointee
        let par = st.codecpar!.pointee
        index = Int(st.index)
        mediaType = MediaType(par.codec_type)
        codecName = String(cString: avcodec_get_name(par.codec_id))
        width = Int(par.width)
        height = Int(par.height)
        let rate = st.avg_frame_rate.num > 0 ? st.avg_frame_rate : st.r_frame_rate
        frameRate = (mediaType == .video && rate.num > 0 && rate.den > 0) ? Rational(rate) : nil
        timeBase = Rational(st.time_base)
        duration = st.duration == cff_AV_NOPTS_VALUE() ? nil : Double(st.duration) * Rational(st.time_base).doubleValue
        startTime = st.start_time == cff_AV_NOPTS_VALUE() ? nil : st.start_time
        sampleRate = Int(par.sample_rate)
        channels = Int(par.ch_layout.nb_channels)
        orientation = mediaType == .video ? DisplayOrientation(stream: stream) : .upright
        parameters = try CodecParameters(copying: st.codecpar)
    }
}
