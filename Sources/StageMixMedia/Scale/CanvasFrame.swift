internal import CFFmpeg

/// The composition surface: a yuv420p picture with its own buffer
/// (av_frame_get_buffer). Drawing calls make it writable first, so an encoder
/// still holding a reference to the previous output never sees new pixels.
public final class CanvasFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    /// How its pixels are to be read: BT.709 limited for compositions; the capture generator also
    /// writes BT.601 and full-range pictures, as cameras and WebRTC do.
    public let colourSpace: YUVColourSpace

    public init(width: Int, height: Int, colourSpace: YUVColourSpace = .bt709) throws(MediaError) {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw MediaError(.invalidArgument, "canvas size \(width)x\(height) must be positive and even")
        }
        guard let f = av_frame_alloc() else { throw .outOfMemory("canvas frame") }
        pointer = f
        self.colourSpace = colourSpace
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.color_range = colourSpace.avRange
        f.pointee.colorspace = colourSpace.avColorspace
        f.pointee.color_primaries = colourSpace.avPrimaries
        f.pointee.color_trc = colourSpace.avTransfer
        try Self.allocatePadded(f)
    }

    /// Every row (of every plane) gets at least `RightMargin.bytes` of padding past the picture, so
    /// swscale's vector stores past a tile at the right edge land in padding, not in the next row.
    private static let rowPadding = 128

    private static func allocatePadded(_ f: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        let width = f.pointee.width
        f.pointee.width = width + Int32(rowPadding)
        defer { f.pointee.width = width }
        _ = try ffCheck(av_frame_get_buffer(f, 0), .outOfMemory, "canvas \(width)x\(f.pointee.height)")
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }

    /// Ensures the buffer is not shared (copying it if an encoder still holds a
    /// reference), so the next writes are private to this canvas.
    public func makeWritable() throws(MediaError) {
        guard av_frame_is_writable(pointer) == 0 else { return }
        // Not av_frame_make_writable: its fresh buffer would lose the row padding.
        guard let fresh = av_frame_alloc() else { throw .outOfMemory("canvas frame") }
        var dead: UnsafeMutablePointer<AVFrame>? = fresh
        defer { av_frame_free(&dead) }
        fresh.pointee.width = pointer.pointee.width
        fresh.pointee.height = pointer.pointee.height
        fresh.pointee.format = pointer.pointee.format
        try Self.allocatePadded(fresh)
        _ = try ffCheck(av_frame_copy(fresh, pointer), .outOfMemory, "copy canvas")
        _ = try ffCheck(av_frame_copy_props(fresh, pointer), .outOfMemory, "copy canvas properties")
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, fresh)
    }

    /// Paints `rect` (the whole canvas when nil) with `color`, converted to
    /// the canvas's colour space. The rectangle is clipped to the canvas and its
    /// origin and size rounded down to even numbers (4:2:0 chroma).
    public func fill(rect: Rect? = nil, color: RGBColor) throws(MediaError) {
        try makeWritable()
        guard let r = clip(rect ?? Rect(x: 0, y: 0, width: width, height: height)) else { return }
        let yuv = colourSpace.yuv(from: color)
        fillPlane(0, x: r.x, y: r.y, width: r.width, height: r.height, value: yuv.y)
        fillPlane(1, x: r.x / 2, y: r.y / 2, width: r.width / 2, height: r.height / 2, value: yuv.u)
        fillPlane(2, x: r.x / 2, y: r.y / 2, width: r.width / 2, height: r.height / 2, value: yuv.v)
    }

    /// A `VideoFrame` sharing the canvas's current pixels (no copy). Later
    /// drawing on the canvas copies-on-write and does not change it.
    public func snapshot(pts: Int64? = nil, timeBase: Rational = Rational(1, 1)) throws(MediaError) -> VideoFrame {
        guard let ref = av_frame_alloc() else { throw .outOfMemory("frame") }
        let ret = av_frame_ref(ref, pointer)
        if ret < 0 {
            var dead: UnsafeMutablePointer<AVFrame>? = ref
            av_frame_free(&dead)
            throw MediaError.ffmpeg(.outOfMemory, "canvas snapshot", ret)
        }
        ref.pointee.pts = pts ?? cff_AV_NOPTS_VALUE()
        ref.pointee.best_effort_timestamp = ref.pointee.pts
        return VideoFrame(taking: ref, timeBase: timeBase)
    }

    /// The colour at (x, y), converted back to RGB; meant for tests and previews.
    public func pixelRGB(x: Int, y: Int) -> RGBColor {
        readYUV420PPixel(pointer, x: x, y: y, in: colourSpace)
    }

    /// The samples of plane `plane` (0 luma, 1 and 2 chroma at half size) row after row, without the
    /// rows' padding; meant for tests that compare pictures sample by sample.
    public func planeSamples(_ plane: Int) -> [UInt8] {
        let shift = plane == 0 ? 0 : 1
        let w = width >> shift, h = height >> shift
        let base = cff_frame_data(pointer, Int32(plane))!
        let stride = Int(cff_frame_linesize(pointer, Int32(plane)))
        var out = [UInt8](repeating: 0, count: w * h)
        out.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<h { (buffer.baseAddress! + row * w).update(from: base + row * stride, count: w) }
        }
        return out
    }

    /// `rect` intersected with the canvas and aligned for 4:2:0, or nil when empty.
    func clip(_ rect: Rect) -> Rect? {
        let x0 = max(0, rect.x) & ~1, y0 = max(0, rect.y) & ~1
        let x1 = min(width, rect.x + rect.width) & ~1, y1 = min(height, rect.y + rect.height) & ~1
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func fillPlane(_ plane: Int32, x: Int, y: Int, width: Int, height: Int, value: UInt8) {
        let base = cff_frame_data(pointer, plane)!
        let stride = Int(cff_frame_linesize(pointer, plane))
        for row in y..<(y + height) {
            (base + row * stride + x).update(repeating: value, count: width)
        }
    }
}
