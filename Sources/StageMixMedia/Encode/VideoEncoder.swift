internal import CFFmpeg

/// Encodes yuv420p canvases with a libavcodec video encoder (libx264, libvpx,
/// libvpx-vp9) into packets timed in 1/frameRate.
public final class VideoEncoder: @unchecked Sendable {
    let context: CodecContext
    public let settings: VideoEncoderSettings

    public init(settings: VideoEncoderSettings) throws(MediaError) {
        self.settings = settings
        guard let codec = avcodec_find_encoder_by_name(settings.codecName),
              codec.pointee.type == AVMEDIA_TYPE_VIDEO else {
            throw MediaError(.unsupportedCodec, "no video encoder named '\(settings.codecName)'")
        }
        context = try CodecContext(codec: codec)
        let c = context.pointer
        c.pointee.width = Int32(settings.width)
        c.pointee.height = Int32(settings.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = AVRational(num: settings.frameRate.denominator, den: settings.frameRate.numerator)
        c.pointee.framerate = settings.frameRate.av
        c.pointee.thread_count = Int32(settings.threadCount)
        c.pointee.color_range = settings.colourSpace.avRange
        c.pointee.colorspace = settings.colourSpace.avColorspace
        c.pointee.color_primaries = settings.colourSpace.avPrimaries
        c.pointee.color_trc = settings.colourSpace.avTransfer
        if settings.gopSize > 0 {
            c.pointee.gop_size = Int32(settings.gopSize)
            c.pointee.keyint_min = Int32(settings.gopSize)
        }
        if settings.globalHeader { c.pointee.flags |= cff_AV_CODEC_FLAG_GLOBAL_HEADER() }
        try Self.applyRateControl(settings, to: context)
        let isX264 = settings.codecName == "libx264"
        if let preset = settings.preset { try context.setOption(isX264 ? "preset" : "deadline", preset) }
        if let tune = settings.tune { try context.setOption("tune", tune) }
        // An I picture we ask for must be an IDR so a segment can start there.
        if isX264 { try context.setOption("forced-idr", "1") }
        for (name, value) in settings.options.sorted(by: { $0.key < $1.key }) {
            try context.setOption(name, value)
        }
        try ffCheck(avcodec_open2(c, codec, nil), .unsupportedCodec, "cannot open encoder \(settings.codecName)")
        parameters = try CodecParameters(from: c)
    }

    private static func applyRateControl(_ settings: VideoEncoderSettings, to context: CodecContext) throws(MediaError) {
        let c = context.pointer
        switch settings.rateControl {
        case .crf(let q):
            try context.setOption("crf", String(q))
            // libvpx treats crf as constrained quality and needs a ceiling; 0 means unconstrained in VP9.
            if settings.codecName.hasPrefix("libvpx") && settings.codecName != "libvpx-vp9" {
                c.pointee.bit_rate = 8_000_000
            }
        case .bitrate(let rate, let maxRate, let bufferSize):
            c.pointee.bit_rate = Int64(rate)
            if maxRate > 0 { c.pointee.rc_max_rate = Int64(maxRate) }
            if bufferSize > 0 { c.pointee.rc_buffer_size = Int32(bufferSize) }
        }
    }

    /// Stream parameters (including extradata) for adding this encoder's stream to a muxer.
    let parameters: CodecParameters

    /// The RFC 6381 codec name (`avc1.64001F`) of an H.264 encoder opened with a global header;
    /// nil otherwise.
    public var codecString: String? { H264CodecString.from(parameters.extradata) }

    /// The unit of `pts` in `send` and of the packets' timestamps: 1/frameRate.
    public var timeBase: Rational { Rational(context.pointer.pointee.time_base) }

    /// Encodes `canvas` shown at `pts` (in `timeBase`). `forceKeyframe` makes
    /// this picture an IDR/keyframe, e.g. at a segment boundary.
    public func send(_ canvas: CanvasFrame, pts: Int64, forceKeyframe: Bool = false) throws(MediaError) {
        try send(frame: canvas.pointer, width: canvas.width, height: canvas.height, pts: pts, forceKeyframe: forceKeyframe)
    }

    /// Encodes a decoded yuv420p frame of the encoder's size, e.g. to re-encode a layer as is.
    public func send(_ frame: VideoFrame, pts: Int64, forceKeyframe: Bool = false) throws(MediaError) {
        guard frame.pixelFormat == .yuv420p else {
            throw MediaError(.invalidArgument, "\(settings.codecName) takes yuv420p, got \(frame.pixelFormat)")
        }
        // VideoFrame is immutable: stamp a reference rather than the shared frame.
        let ref = try frame.reference()
        try send(frame: ref.pointer, width: frame.width, height: frame.height, pts: pts, forceKeyframe: forceKeyframe)
    }

    private func send(frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, pts: Int64, forceKeyframe: Bool) throws(MediaError) {
        guard width == settings.width, height == settings.height else {
            throw MediaError(.invalidArgument, "\(settings.codecName) opened for \(settings.width)x\(settings.height), got \(width)x\(height)")
        }
        frame.pointee.pts = pts
        frame.pointee.pict_type = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        // The encoder takes its own reference to the buffer; the caller's
        // next drawing call copies-on-write (CanvasFrame.makeWritable).
        try context.send(frame: frame)
    }

    /// Starts draining: after this, `receive()` returns the remaining packets, then `.endOfStream`.
    public func sendEndOfStream() throws(MediaError) {
        try context.send(frame: nil)
    }

    public func receive() throws(MediaError) -> EncoderOutput {
        let output = try context.receivePacket()
        // FFmpeg 5.1 encoders leave duration 0; in 1/frameRate every picture lasts one tick.
        // Without it MP4 gets a zero-length last sample and its edit list hides the last frame.
        if case .packet(let p) = output, p.pointer.pointee.duration == 0 { p.pointer.pointee.duration = 1 }
        return output
    }
}
