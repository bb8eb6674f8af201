public import StageMixTime

internal import CFFmpeg

/// Encodes Float audio with a libavcodec encoder (native "aac" by default).
/// Buffers input into the encoder's frame size (1024 samples for AAC), so
/// callers may send blocks of any length. Packets are timed in 1/sampleRate.
public final class AudioEncoder: @unchecked Sendable {
    let context: CodecContext
    let parameters: CodecParameters
    public let sampleRate: Int
    public let channels: Int
    /// Samples per channel in each encoded frame.
    public let frameSize: Int
    private var pending: [[Float]]
    private var nextPTS: Int64 = 0
    private let frame: UnsafeMutablePointer<AVFrame>

    public init(codecName: String = "aac", sampleRate: Int = MediaTime.sampleRate, channels: Int = 2,
                bitrate: Int = 128_000, globalHeader: Bool = true) throws(MediaError) {
        guard let codec = avcodec_find_encoder_by_name(codecName), codec.pointee.type == AVMEDIA_TYPE_AUDIO else {
            throw MediaError(.unsupportedCodec, "no audio encoder named '\(codecName)'")
        }
        context = try CodecContext(codec: codec)
        let c = context.pointer
        c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        c.pointee.sample_rate = Int32(sampleRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        c.pointee.bit_rate = Int64(bitrate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels))
        if globalHeader { c.pointee.flags |= cff_AV_CODEC_FLAG_GLOBAL_HEADER() }
        try ffCheck(avcodec_open2(c, codec, nil), .unsupportedCodec, "cannot open encoder \(codecName) (needs fltp input)")
        parameters = try CodecParameters(from: c)
        self.sampleRate = sampleRate
        self.channels = channels
        frameSize = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : 1024
        pending = Array(repeating: [], count: channels)
        guard let f = av_frame_alloc() else { throw .outOfMemory("audio frame") }
        frame = f
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&p)
    }

    public var timeBase: Rational { Rational(1, Int32(sampleRate)) }

    /// Appends planar samples (one array per channel, equal lengths) and
    /// encodes every complete frame. Receive packets afterwards.
    public func send(planar: [[Float]]) throws(MediaError) {
        guard planar.count == channels else {
            throw MediaError(.invalidArgument, "audio encoder has \(channels) channels, got \(planar.count)")
        }
        for c in 0..<channels { pending[c] += planar[c] }
        while pending[0].count >= frameSize { try encodePending(count: frameSize) }
    }

    /// Convenience for interleaved samples.
    public func send(_ samples: AudioSamples) throws(MediaError) {
        try send(planar: samples.planar)
    }

    /// Encodes the buffered remainder (a shorter last frame) and starts draining.
    public func sendEndOfStream() throws(MediaError) {
        if !pending[0].isEmpty { try encodePending(count: pending[0].count) }
        try submit(nil)
    }

    public func receive() throws(MediaError) -> EncoderOutput {
        if !ready.isEmpty { return .packet(ready.removeFirst()) }
        return try context.receivePacket()
    }

    /// Packets taken from the codec to make room for more input, waiting for `receive()`.
    private var ready: [Packet] = []

    /// Hands a frame (nil: end of stream) to the codec, taking packets out when it is full, so a caller
    /// may send blocks of any length before receiving.
    private func submit(_ frame: UnsafePointer<AVFrame>?) throws(MediaError) {
        while try !context.trySend(frame: frame) {
            while case .packet(let packet) = try context.receivePacket() { ready.append(packet) }
        }
    }

    private func encodePending(count: Int) throws(MediaError) {
        av_frame_unref(frame)
        frame.pointee.nb_samples = Int32(count)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        try ffCheck(av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointer.pointee.ch_layout), .outOfMemory, "channel layout")
        try ffCheck(av_frame_get_buffer(frame, 0), .outOfMemory, "audio frame buffer")
        for c in 0..<channels {
            let dst = UnsafeMutableRawPointer(frame.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
            pending[c].withUnsafeBufferPointer { dst.update(from: $0.baseAddress!, count: count) }
            pending[c].removeFirst(count)
        }
        frame.pointee.pts = nextPTS
        nextPTS += Int64(count)
        try submit(frame)
    }
}
