import StageMixTime

internal import COpus

/// Encodes 48 kHz Float audio into 20 ms Opus packets with libopus, and
/// provides the OpusHead a muxer needs. Packet timestamps follow the Ogg/WebM
/// convention: the first packet starts at -preSkip, so decoded sample 0 is
/// input sample 0, and the last packet's duration ends at the last input sample.
public final class OpusEncoder: @unchecked Sendable {
    private let encoder: OpaquePointer
    public let channels: Int
    public let sampleRate = MediaTime.sampleRate
    public let frameSize = 960  // 20 ms
    /// Encoder lookahead in samples, written to OpusHead as pre-skip.
    public let preSkip: Int
    public var timeBase: Rational { Rational(1, Int32(MediaTime.sampleRate)) }
    private var pending: [Float] = []
    private var inputSamples: Int64 = 0
    private var encodedSamples: Int64 = 0
    private var output = [UInt8](repeating: 0, count: 4000)

    public init(channels: Int = 2, bitrate: Int = 96_000) throws(MediaError) {
        guard channels == 1 || channels == 2 else {
            throw MediaError(.unsupportedCodec, "Opus with \(channels) channels not supported")
        }
        var err: Int32 = 0
        guard let e = opus_encoder_create(Int32(MediaTime.sampleRate), Int32(channels), OPUS_APPLICATION_AUDIO, &err), err == OPUS_OK else {
            throw MediaError(.openFailed, "opus_encoder_create: \(String(cString: opus_strerror(err)))", underlyingCode: err)
        }
        encoder = e
        self.channels = channels
        var lookahead: Int32 = 0
        _ = copus_encoder_get_lookahead(e, &lookahead)
        preSkip = Int(lookahead)
        let set = copus_encoder_set_bitrate(e, Int32(bitrate))
        if set != OPUS_OK {
            opus_encoder_destroy(e)
            throw MediaError(.invalidArgument, "Opus bitrate \(bitrate): \(String(cString: opus_strerror(set)))", underlyingCode: set)
        }
    }

    deinit { opus_encoder_destroy(encoder) }

    /// The OpusHead identification header (RFC 7845) to use as stream extradata.
    public var header: [UInt8] { OpusHead(channels: channels, preSkip: preSkip).bytes }

    /// Buffers interleaved samples and returns the packets of every complete 20 ms frame.
    public func encode(_ samples: AudioSamples) throws(MediaError) -> [Packet] {
        guard samples.channels == channels, samples.sampleRate == sampleRate else {
            throw MediaError(.invalidArgument, "Opus encoder takes \(channels) ch at 48 kHz, got \(samples.channels) ch at \(samples.sampleRate) Hz")
        }
        pending += samples.interleaved
        inputSamples += Int64(samples.frameCount)
        var packets: [Packet] = []
        while pending.count >= frameSize * channels { packets.append(try encodeFrame()) }
        return packets
    }

    /// Pads with silence and encodes until every input sample (delayed by the
    /// lookahead) is covered; the last packet's duration is trimmed to the input's end.
    public func finish() throws(MediaError) -> [Packet] {
        var packets: [Packet] = []
        while encodedSamples - Int64(preSkip) < inputSamples {
            let missing = frameSize * channels - pending.count
            if missing > 0 { pending += [Float](repeating: 0, count: missing) }
            packets.append(try encodeFrame())
        }
        return packets
    }

    private func encodeFrame() throws(MediaError) -> Packet {
        let capacity = Int32(output.count)
        let n = pending.withUnsafeBufferPointer { pcm in
            output.withUnsafeMutableBufferPointer { out in
                opus_encode_float(encoder, pcm.baseAddress!, Int32(frameSize), out.baseAddress!, capacity)
            }
        }
        if n < 0 {
            throw MediaError(.encodeFailed, "opus_encode_float: \(String(cString: opus_strerror(n)))", underlyingCode: n)
        }
        pending.removeFirst(frameSize * channels)
        let pts = encodedSamples - Int64(preSkip)
        encodedSamples += Int64(frameSize)
        // Timestamps count output samples: packets past the input end are trimmed.
        let duration = max(0, min(Int64(frameSize), inputSamples - pts))
        return try Packet(bytes: Array(output[0..<Int(n)]), pts: pts, duration: duration, timeBase: timeBase)
    }
}
