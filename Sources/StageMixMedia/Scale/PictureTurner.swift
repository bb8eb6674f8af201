internal import CFFmpeg

/// Turns a stored picture the way it is shown (``DisplayOrientation``): a new 4:2:0 picture with the
/// shown width and height, the same colour tags, pixels moved plane by plane. Only rotated streams
/// pay for it, once per decoded picture.
enum PictureTurner {
    /// `frame` as shown; `frame` itself when it is upright or not 8-bit 4:2:0 planar (left as stored).
    static func upright(_ frame: VideoFrame) throws(MediaError) -> VideoFrame {
        let orientation = frame.orientation
        guard !orientation.isUpright,
              frame.pixelFormat == .yuv420p || frame.pixelFormat == PixelFormat(AV_PIX_FMT_YUVJ420P) else { return frame }
        guard let out = av_frame_alloc() else { throw .outOfMemory("turned frame") }
        var owned: UnsafeMutablePointer<AVFrame>? = out
        out.pointee.format = frame.pointer.pointee.format
        out.pointee.width = Int32(frame.displayWidth)
        out.pointee.height = Int32(frame.displayHeight)
        do {
            _ = try ffCheck(av_frame_get_buffer(out, 0), .outOfMemory, "turned frame \(frame.displayWidth)x\(frame.displayHeight)")
            _ = try ffCheck(av_frame_copy_props(out, frame.pointer), .outOfMemory, "turned frame properties")
        } catch {
            av_frame_free(&owned)
            throw error
        }
        for plane in Int32(0)..<3 {
            let shift = plane == 0 ? 0 : 1
            let width = (frame.width + shift) >> shift, height = (frame.height + shift) >> shift
            turn(from: cff_frame_data(frame.pointer, plane)!, stride: Int(cff_frame_linesize(frame.pointer, plane)),
                 width: width, height: height,
                 to: cff_frame_data(out, plane)!, stride: Int(cff_frame_linesize(out, plane)), orientation: orientation)
        }
        return VideoFrame(taking: out, timeBase: frame.timeBase, orientation: .upright)
    }

    /// Writes each shown pixel from the stored one it comes from.
    private static func turn(from src: UnsafeMutablePointer<UInt8>, stride srcStride: Int, width w: Int, height h: Int,
                             to dst: UnsafeMutablePointer<UInt8>, stride dstStride: Int, orientation: DisplayOrientation) {
        let outWidth = orientation.swapsSides ? h : w, outHeight = orientation.swapsSides ? w : h
        for y in 0..<outHeight {
            let row = dst + y * dstStride
            for x in 0..<outWidth {
                // Undo the turn, then the mirror: (x, y) shown comes from (sx, sy) stored.
                var sx: Int, sy: Int
                switch orientation.quarterTurns {
                case 1: sx = y; sy = h - 1 - x
                case 2: sx = w - 1 - x; sy = h - 1 - y
                case 3: sx = w - 1 - y; sy = x
                default: sx = x; sy = y
                }
                if orientation.mirrored { sx = w - 1 - sx }
                row[x] = src[sy * srcStride + sx]
            }
        }
    }
}
