internal import CFFmpeg

/// Decodes a non-Opus audio stream (AAC, MP3, Vorbis ...) with libavcodec into
/// interleaved Float samples at the stream's own rate; it does not resample.
public final class AudioDecoder: @unchecked Sendable {
    private let context: CodecContext

    public init(stream: StreamInfo) throws(MediaError) {
        guard stream.mediaType == .audio else {
            throw MediaError(.invalidArgument, "stream \(stream.index) is \(stream.mediaType), not audio")
        }
        context = try CodecContext.openDecoder(stream.parameters, timeBase: stream.timeBase, threadCount: 1)
    }

    public var codecName: String { context.codecName }

    /// Feeds one packet; nil flushes the decoder at the end of the stream.
    public func send(_ packet: Packet?) throws(MediaError) {
        try context.send(packet: packet)
    }

    public func receive() throws(MediaError) -> DecoderOutput<AudioSamples> {
        switch try context.receiveFrame() {
        case .frame(let f):
            defer {
                var dead: UnsafeMutablePointer<AVFrame>? = f
                av_frame_free(&dead)
            }
            return .frame(try Self.samples(of: f, codec: context.codecName))
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        }
    }

    private static func samples(of frame: UnsafeMutablePointer<AVFrame>, codec: String) throws(MediaError) -> AudioSamples {
        let f = frame.pointee
        let channels = Int(f.ch_layout.nb_channels)
        let count = Int(f.nb_samples)
        var out = AudioSamples(sampleRate: Int(f.sample_rate), channels: channels,
                               interleaved: [Float](repeating: 0, count: channels * count))
        let format = AVSampleFormat(rawValue: f.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        // Sample i of channel c: plane c at i (planar), or plane 0 at i*channels+c (packed).
        func read<T>(_ type: T.Type, _ convert: (T) -> Float) {
            for c in 0..<channels {
                let base = UnsafeRawPointer(f.extended_data[planar ? c : 0]!).assumingMemoryBound(to: T.self)
                for i in 0..<count {
                    out.interleaved[i * channels + c] = convert(base[planar ? i : i * channels + c])
                }
            }
        }
        switch av_get_packed_sample_fmt(format) {
        case AV_SAMPLE_FMT_FLT: read(Float.self) { $0 }
        case AV_SAMPLE_FMT_DBL: read(Double.self) { Float($0) }
        case AV_SAMPLE_FMT_S16: read(Int16.self) { Float($0) / 32768 }
        case AV_SAMPLE_FMT_S32: read(Int32.self) { Float(Double($0) / 2147483648) }
        default:
            throw MediaError(.unsupportedCodec, "\(codec): sample format \(String(cString: av_get_sample_fmt_name(format))) not supported")
        }
        return out
    }
}
