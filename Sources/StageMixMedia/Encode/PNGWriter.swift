public import Foundation
internal import CFFmpeg

/// Writes a canvas as a PNG still (for previews): swscale to RGB24, then libavcodec's PNG encoder.
public enum PNGWriter {
    public static func write(_ canvas: CanvasFrame, to url: URL) throws(MediaError) {
        let width = Int32(canvas.width), height = Int32(canvas.height)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.unsupportedCodec, "no PNG encoder in this libavcodec")
        }
        let context = try CodecContext(codec: codec)
        let c = context.pointer
        c.pointee.width = width
        c.pointee.height = height
        c.pointee.pix_fmt = AV_PIX_FMT_RGB24
        c.pointee.time_base = AVRational(num: 1, den: 1)
        _ = try ffCheck(avcodec_open2(c, codec, nil), .unsupportedCodec, "cannot open PNG encoder")

        guard let rgb = av_frame_alloc() else { throw .outOfMemory("PNG frame") }
        defer { var dead: UnsafeMutablePointer<AVFrame>? = rgb; av_frame_free(&dead) }
        rgb.pointee.width = width
        rgb.pointee.height = height
        rgb.pointee.format = AV_PIX_FMT_RGB24.rawValue
        _ = try ffCheck(av_frame_get_buffer(rgb, 0), .outOfMemory, "PNG frame \(width)x\(height)")
        guard let sws = sws_getContext(width, height, AV_PIX_FMT_YUV420P, width, height, AV_PIX_FMT_RGB24,
                                       SWS_BILINEAR, nil, nil, nil) else {
            throw MediaError(.unsupportedCodec, "swscale cannot convert yuv420p to rgb24")
        }
        defer { sws_freeContext(sws) }
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        _ = sws_setColorspaceDetails(sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16)
        let src = canvas.pointer
        let srcData: [UnsafePointer<UInt8>?] = [UnsafePointer(src.pointee.data.0), UnsafePointer(src.pointee.data.1),
                                                 UnsafePointer(src.pointee.data.2), nil]
        let srcStrides: [Int32] = [src.pointee.linesize.0, src.pointee.linesize.1, src.pointee.linesize.2, 0]
        let dstData: [UnsafeMutablePointer<UInt8>?] = [rgb.pointee.data.0, nil, nil, nil]
        let dstStrides: [Int32] = [rgb.pointee.linesize.0, 0, 0, 0]
        _ = try ffCheck(sws_scale(sws, srcData, srcStrides, 0, height, dstData, dstStrides), .invalidArgument, "yuv420p -> rgb24")

        _ = try ffCheck(avcodec_send_frame(c, rgb), .encodeFailed, "PNG encode")
        _ = try ffCheck(avcodec_send_frame(c, nil), .encodeFailed, "PNG flush")
        guard let packet = av_packet_alloc() else { throw .outOfMemory("PNG packet") }
        defer { var dead: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&dead) }
        _ = try ffCheck(avcodec_receive_packet(c, packet), .encodeFailed, "PNG encode")
        let bytes = Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
        do {
            try bytes.write(to: url, options: .atomic)
        } catch {
            throw MediaError(.openFailed, "cannot write '\(url.path)': \(error.localizedDescription)")
        }
    }
}
