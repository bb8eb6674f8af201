internal import CFFmpeg

/// Owns an AVCodecContext and implements the send/receive calls that decoders
/// and encoders share, turning EAGAIN/EOF into enum cases instead of errors.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let codecName: String
    /// The watch the context's opaque points at, released only after the context is freed (it may log then).
    private var watch: MediaWatch?

    init(codec: UnsafePointer<AVCodec>) throws(MediaError) {
        guard let ctx = avcodec_alloc_context3(codec) else { throw .outOfMemory("codec context") }
        pointer = ctx
        codecName = String(cString: codec.pointee.name)
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&p)
    }

    /// A decoder context configured from stream parameters, opened.
    /// `maxPixels` bounds the pictures it allocates; `watch` counts the errors it logs.
    static func openDecoder(_ parameters: CodecParameters, timeBase: Rational, threadCount: Int,
                            maxPixels: Int = MediaLimits.maxPixels, watch: MediaWatch? = nil) throws(MediaError) -> CodecContext {
        let id = parameters.pointer.pointee.codec_id
        guard let codec = avcodec_find_decoder(id) else {
            throw MediaError(.unsupportedCodec, "no decoder for codec '\(String(cString: avcodec_get_name(id)))'")
        }
        let ctx = try CodecContext(codec: codec)
        try ffCheck(avcodec_parameters_to_context(ctx.pointer, parameters.pointer), .invalidArgument,
                    "decoder parameters for \(ctx.codecName)")
        ctx.pointer.pointee.pkt_timebase = timeBase.av
        ctx.pointer.pointee.thread_count = Int32(threadCount)
        ctx.pointer.pointee.max_pixels = Int64(maxPixels)
        ctx.pointer.pointee.opaque = watch?.opaque
        ctx.watch = watch
        try ffCheck(avcodec_open2(ctx.pointer, codec, nil), .unsupportedCodec, "cannot open decoder \(ctx.codecName)")
        return ctx
    }

    /// Sends a packet to a decoder; nil starts draining.
    func send(packet: Packet?) throws(MediaError) {
        let ret = avcodec_send_packet(pointer, packet?.pointer)
        if ret == cff_AVERROR_EOF() { return }  // already draining; nothing more to do
        if ret == cff_AVERROR_EAGAIN() {
            throw MediaError(.invalidArgument, "\(codecName): receive() the pending frames before sending more input")
        }
        try ffCheck(ret, .decodeFailed, "\(codecName) cannot decode packet")
    }

    /// Sends a frame to an encoder; nil starts draining.
    func send(frame: UnsafePointer<AVFrame>?) throws(MediaError) {
        guard try trySend(frame: frame) else {
            throw MediaError(.invalidArgument, "\(codecName): receive() the pending packets before sending more input")
        }
    }

    /// Sends a frame to an encoder; false when it must give up packets first (EAGAIN).
    func trySend(frame: UnsafePointer<AVFrame>?) throws(MediaError) -> Bool {
        let ret = avcodec_send_frame(pointer, frame)
        if ret == cff_AVERROR_EOF() { return true }
        if ret == cff_AVERROR_EAGAIN() { return false }
        _ = try ffCheck(ret, .encodeFailed, "\(codecName) cannot encode frame")
        return true
    }

    /// The next decoded frame; the caller owns the returned AVFrame.
    func receiveFrame() throws(MediaError) -> DecoderOutput<UnsafeMutablePointer<AVFrame>> {
        guard let frame = av_frame_alloc() else { throw .outOfMemory("frame") }
        let ret = avcodec_receive_frame(pointer, frame)
        if ret >= 0 { return .frame(frame) }
        var dead: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&dead)
        if ret == cff_AVERROR_EAGAIN() { return .needsInput }
        if ret == cff_AVERROR_EOF() { return .endOfStream }
        throw MediaError.ffmpeg(.decodeFailed, "\(codecName) cannot decode", ret)
    }

    /// The next encoded packet, stamped with the encoder's time base.
    func receivePacket() throws(MediaError) -> EncoderOutput {
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        let ret = avcodec_receive_packet(pointer, p)
        if ret >= 0 { return .packet(Packet(taking: p, timeBase: Rational(pointer.pointee.time_base))) }
        var dead: UnsafeMutablePointer<AVPacket>? = p
        av_packet_free(&dead)
        if ret == cff_AVERROR_EAGAIN() { return .needsInput }
        if ret == cff_AVERROR_EOF() { return .endOfStream }
        throw MediaError.ffmpeg(.encodeFailed, "\(codecName) cannot encode", ret)
    }

    /// Sets a codec-private option (e.g. x264's "preset"), naming it in the error.
    func setOption(_ name: String, _ value: String) throws(MediaError) {
        try ffCheck(av_opt_set(pointer.pointee.priv_data, name, value, 0), .invalidArgument,
                    "\(codecName) option \(name)=\(value)")
    }
}
