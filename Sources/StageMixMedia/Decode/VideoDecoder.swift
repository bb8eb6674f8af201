internal import CFFmpeg

/// Decodes one video stream (VP8, VP9, H.264, or anything libavcodec knows)
/// into `VideoFrame`s. Send packets, then `receive()` until `.needsInput`;
/// at the end `send(nil)` and receive until `.endOfStream`.
public final class VideoDecoder: @unchecked Sendable {
    private let context: CodecContext
    private let timeBase: Rational
    private let orientation: DisplayOrientation

    /// - Parameter threadCount: decoder threads; 0 lets libavcodec choose.
    public init(stream: StreamInfo, threadCount: Int = 0) throws(MediaError) {
        guard stream.mediaType == .video else {
            throw MediaError(.invalidArgument, "stream \(stream.index) is \(stream.mediaType), not video")
        }
        context = try CodecContext.openDecoder(stream.parameters, timeBase: stream.timeBase, threadCount: threadCount)
        timeBase = stream.timeBase
        orientation = stream.orientation
    }

    /// The libavcodec decoder in use, e.g. "vp8" or "h264".
    public var codecName: String { context.codecName }

    /// Feeds one packet; nil flushes the decoder at the end of the stream.
    public func send(_ packet: Packet?) throws(MediaError) {
        try context.send(packet: packet)
    }

    public func receive() throws(MediaError) -> DecoderOutput<VideoFrame> {
        switch try context.receiveFrame() {
        case .frame(let f): return .frame(VideoFrame(taking: f, timeBase: timeBase, orientation: orientation))
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        }
    }

    /// Forgets buffered frames, e.g. after a seek.
    public func reset() {
        avcodec_flush_buffers(context.pointer)
    }
}
