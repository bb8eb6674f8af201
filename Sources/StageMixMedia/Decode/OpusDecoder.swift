import StageMixTime

internal import COpus

/// Decodes Opus packets (from an Ogg or WebM demuxer) with libopus into
/// 48 kHz Float samples, mono or stereo, dropping the encoder's pre-skip
/// and any end trimming the container signals.
public final class OpusDecoder: @unchecked Sendable {
    private let decoder: OpaquePointer
    public let channels: Int
    public let sampleRate = MediaTime.sampleRate
    /// Samples per channel dropped from the start of the stream (OpusHead pre-skip).
    public let preSkip: Int
    private var skipRemaining: Int
    private var pcm: [Float]

    /// A decoder for an Opus stream, reading channels and pre-skip from its OpusHead.
    public convenience init(stream: StreamInfo) throws(MediaError) {
        guard stream.codecName == "opus" else {
            throw MediaError(.unsupportedCodec, "stream \(stream.index) is \(stream.codecName), not opus")
        }
        let head = try OpusHead(parsing: stream.extradata)
        try self.init(channels: head.channels, preSkip: head.preSkip)
    }

    public init(channels: Int, preSkip: Int = 0) throws(MediaError) {
        guard channels == 1 || channels == 2 else {
            throw MediaError(.unsupportedCodec, "Opus with \(channels) channels not supported")
        }
        var err: Int32 = 0
        guard let d = opus_decoder_create(Int32(MediaTime.sampleRate), Int32(channels), &err), err == OPUS_OK else {
            throw MediaError(.openFailed, "opus_decoder_create: \(String(cString: opus_strerror(err)))", underlyingCode: err)
        }
        decoder = d
        self.channels = channels
        self.preSkip = preSkip
        skipRemaining = preSkip
        pcm = [Float](repeating: 0, count: 5760 * channels)  // 120 ms, the longest Opus packet
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Decodes one packet into interleaved samples (possibly empty while pre-skip is consumed).
    public func decode(_ packet: Packet) throws(MediaError) -> AudioSamples {
        let bytes = packet.bytes
        let capacity = Int32(pcm.count / channels)
        let decoded = bytes.withUnsafeBufferPointer { src in
            pcm.withUnsafeMutableBufferPointer { dst in
                opus_decode_float(decoder, src.baseAddress, Int32(src.count), dst.baseAddress!, capacity, 0)
            }
        }
        if decoded < 0 {
            throw MediaError(.decodeFailed, "opus_decode_float: \(String(cString: opus_strerror(decoded)))", underlyingCode: decoded)
        }
        var start = min(skipRemaining, Int(decoded))
        skipRemaining -= start
        let end = max(start, Int(decoded) - packet.skipSamples.end)
        start = min(start, end)
        return AudioSamples(sampleRate: sampleRate, channels: channels,
                            interleaved: Array(pcm[(start * channels)..<(end * channels)]))
    }

    /// Forgets decoder state, e.g. after a seek; pre-skip is not applied again.
    public func reset() {
        _ = copus_decoder_reset(decoder)
    }
}
