internal import CFFmpeg

/// Decodes one video stream (VP8, VP9, H.264, or anything libavcodec knows)
/// into `VideoFrame`s. Send packets, then `receive()` until `.needsInput`;
/// at the end `send(nil)` and receive until `.endOfStream`.
public final class VideoDecoder: @unchecked Sendable {
    private let context: CodecContext
    private let timeBase: Rational
    private let orientation: DisplayOrientation

    private let watch: MediaWatch
    /// The largest picture this decoder allocates or delivers.
    public let maxPixels: Int

    /// - Parameter threadCount: decoder threads; 0 lets libavcodec choose.
    /// - Parameter maxPixels: libavcodec refuses to allocate a larger picture (a header claiming one fails
    ///   to decode with `.tooLarge`), and a decoder that does not check is caught at `receive()`.
    public init(stream: StreamInfo, threadCount: Int = 0, maxPixels: Int = MediaLimits.maxPixels) throws(MediaError) {
        guard stream.mediaType == .video else {
            throw MediaError(.invalidArgument, "stream \(stream.index) is \(stream.mediaType), not video")
        }
        self.maxPixels = maxPixels
        let watch = MediaWatch()
        self.watch = watch
        context = try CodecContext.openDecoder(stream.parameters, timeBase: stream.timeBase, threadCount: threadCount,
                                               maxPixels: maxPixels, watch: watch)
        timeBase = stream.timeBase
        orientation = stream.orientation
    }

    /// Errors the decoder has logged so far, including damage it concealed and still returned a picture for.
    public var loggedErrors: Int { watch.errors }

    /// The libavcodec decoder in use, e.g. "vp8" or "h264".
    public var codecName: String { context.codecName }

    /// Feeds one packet; nil flushes the decoder at the end of the stream.
    public func send(_ packet: Packet?) throws(MediaError) {
        do {
            try context.send(packet: packet)
        } catch {
            throw Self.classified(error)
        }
    }

    /// The next picture; a picture over `maxPixels` is dropped and thrown as `.tooLarge`.
    public func receive() throws(MediaError) -> DecoderOutput<VideoFrame> {
        let output: DecoderOutput<UnsafeMutablePointer<AVFrame>>
        do {
            output = try context.receiveFrame()
        } catch {
            throw Self.classified(error)
        }
        switch output {
        case .frame(let f):
            let frame = VideoFrame(taking: f, timeBase: timeBase, orientation: orientation)
            guard frame.width * frame.height <= maxPixels else {
                throw MediaError(.tooLarge, "\(codecName) delivered a \(frame.width)x\(frame.height) picture, over the \(maxPixels)-pixel limit")
            }
            return .frame(frame)
        case .needsInput: return .needsInput
        case .endOfStream: return .endOfStream
        }
    }

    /// libavcodec refuses a picture over max_pixels with EINVAL (ff_set_dimensions); damaged data is
    /// AVERROR_INVALIDDATA. Telling them apart lets the report say which.
    private static func classified(_ error: MediaError) -> MediaError {
        guard error.code == .decodeFailed, error.underlyingCode == cff_AVERROR_EINVAL() else { return error }
        return MediaError(.tooLarge, error.message + " (picture over the size limit)", underlyingCode: error.underlyingCode)
    }

    /// Forgets buffered frames, e.g. after a seek.
    public func reset() {
        avcodec_flush_buffers(context.pointer)
    }
}
