public import Foundation
internal import CFFmpeg

/// Writes canvases as JPEG stills of one size (thumbnails, posters): swscale from the BT.709
/// limited-range canvas to full-range 4:2:0 at that size, then libavcodec's MJPEG encoder. The
/// scaler, the encoder and the picture are made once and reused for every still.
public final class JPEGWriter: @unchecked Sendable {
    public let width: Int
    public let height: Int
    private let context: CodecContext
    private let picture: UnsafeMutablePointer<AVFrame>
    private let sws: OpaquePointer
    private let packet: UnsafeMutablePointer<AVPacket>

    /// Stills of `width`x`height` (even) from canvases of `sourceWidth`x`sourceHeight`; `quality` is
    /// MJPEG's qscale, 2 (best) to 31.
    public init(width: Int, height: Int, sourceWidth: Int, sourceHeight: Int, quality: Int = 4) throws(MediaError) {
        guard width >= 2, height >= 2, width % 2 == 0, height % 2 == 0, width <= 8192, height <= 8192 else {
            throw MediaError(.invalidArgument, "JPEG size \(width)x\(height) must be even, from 2x2 to 8192x8192")
        }
        self.width = width
        self.height = height
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(.unsupportedCodec, "no MJPEG encoder in this libavcodec")
        }
        context = try CodecContext(codec: codec)
        let c = context.pointer
        c.pointee.width = Int32(width)
        c.pointee.height = Int32(height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        c.pointee.color_range = AVCOL_RANGE_JPEG
        c.pointee.time_base = AVRational(num: 1, den: 25)
        c.pointee.flags |= AV_CODEC_FLAG_QSCALE
        c.pointee.global_quality = Int32(max(2, min(31, quality))) * FF_QP2LAMBDA
        _ = try ffCheck(avcodec_open2(c, codec, nil), .unsupportedCodec, "cannot open the MJPEG encoder")

        guard let picture = av_frame_alloc() else { throw .outOfMemory("JPEG picture") }
        self.picture = picture
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        picture.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        picture.pointee.color_range = AVCOL_RANGE_JPEG
        picture.pointee.quality = c.pointee.global_quality
        guard av_frame_get_buffer(picture, 0) >= 0,
              let sws = sws_getContext(Int32(sourceWidth), Int32(sourceHeight), AV_PIX_FMT_YUV420P, Int32(width), Int32(height),
                                       AV_PIX_FMT_YUVJ420P, SWS_BICUBIC, nil, nil, nil),
              let packet = av_packet_alloc() else {
            var dead: UnsafeMutablePointer<AVFrame>? = picture
            av_frame_free(&dead)
            throw MediaError(.outOfMemory, "JPEG scaler \(sourceWidth)x\(sourceHeight) -> \(width)x\(height)")
        }
        // Limited-range BT.709 in, full-range (JPEG's own) out.
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        _ = sws_setColorspaceDetails(sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16)
        self.sws = sws
        self.packet = packet
    }

    deinit {
        var dead: UnsafeMutablePointer<AVFrame>? = picture
        av_frame_free(&dead)
        var deadPacket: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&deadPacket)
        sws_freeContext(sws)
    }

    /// The JPEG bytes of `canvas` at this writer's size.
    public func encode(_ canvas: CanvasFrame) throws(MediaError) -> Data {
        _ = try ffCheck(av_frame_make_writable(picture), .outOfMemory, "JPEG picture")
        let src = try Scaler.planePointers(canvas.pointer, origin: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        let dst = try Scaler.planePointers(picture, origin: Rect(x: 0, y: 0, width: width, height: height))
        _ = try ffCheck(sws_scale(sws, src.data.map { UnsafePointer($0) }, src.strides, 0, Int32(canvas.height), dst.data, dst.strides), .invalidArgument,
                        "canvas -> \(width)x\(height) JPEG picture")
        _ = try ffCheck(avcodec_send_frame(context.pointer, picture), .encodeFailed, "JPEG encode")
        _ = try ffCheck(avcodec_receive_packet(context.pointer, packet), .encodeFailed, "JPEG encode")
        defer { av_packet_unref(packet) }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }

    /// Encodes `canvas` and writes it to `url` whole (written aside, then renamed).
    public func write(_ canvas: CanvasFrame, to url: URL) throws(MediaError) {
        let bytes = try encode(canvas)
        do {
            try bytes.write(to: url, options: .atomic)
        } catch {
            throw MediaError(.openFailed, "cannot write '\(url.path)': \(error.localizedDescription)")
        }
    }
}
