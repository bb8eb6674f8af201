internal import CFFmpeg

/// A decoded picture (AVFrame). Immutable and reference-counted: keeping the
/// last frame of a paused stream holds a reference, not a copy.
public final class VideoFrame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>
    /// The time base of `pts` and `bestEffortTimestamp`.
    public let timeBase: Rational

    /// How the picture is turned to be shown (its stream's display matrix).
    public let orientation: DisplayOrientation

    /// Takes ownership of `pointer`.
    init(taking pointer: UnsafeMutablePointer<AVFrame>, timeBase: Rational, orientation: DisplayOrientation = .upright) {
        self.pointer = pointer
        self.timeBase = timeBase
        self.orientation = orientation
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }

    /// A second frame sharing this one's buffers (av_frame_ref).
    public func reference() throws(MediaError) -> VideoFrame {
        guard let copy = av_frame_alloc() else { throw .outOfMemory("frame") }
        let ret = av_frame_ref(copy, pointer)
        if ret < 0 {
            var dead: UnsafeMutablePointer<AVFrame>? = copy
            av_frame_free(&dead)
            throw MediaError.ffmpeg(.outOfMemory, "frame reference", ret)
        }
        return VideoFrame(taking: copy, timeBase: timeBase, orientation: orientation)
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }
    /// The size as shown, after ``orientation``.
    public var displayWidth: Int { orientation.swapsSides ? height : width }
    public var displayHeight: Int { orientation.swapsSides ? width : height }
    public var pixelFormat: PixelFormat { PixelFormat(raw: pointer.pointee.format) }
    public var pts: Int64? { optionalTimestamp(pointer.pointee.pts) }
    public var bestEffortTimestamp: Int64? { optionalTimestamp(pointer.pointee.best_effort_timestamp) }
    /// `bestEffortTimestamp` in seconds.
    public var seconds: Double? { bestEffortTimestamp.map { Double($0) * timeBase.doubleValue } }
    public var isKeyframe: Bool { pointer.pointee.key_frame != 0 }

    /// How the picture's values map to RGB, from its tags (unspecified: BT.601 limited, as libswscale reads it).
    public var colourSpace: YUVColourSpace {
        YUVColourSpace(colorspace: pointer.pointee.colorspace, range: pointer.pointee.color_range, pixelFormat: pointer.pointee.format)
    }

    /// The colour at (x, y), read in the picture's colour space, for yuv420p pictures (nil for other formats).
    public func pixelRGB(x: Int, y: Int) -> RGBColor? {
        let f = pixelFormat
        guard f == .yuv420p || f == PixelFormat(AV_PIX_FMT_YUVJ420P) else { return nil }
        return readYUV420PPixel(pointer, x: x, y: y, in: colourSpace)
    }
}

/// Reads one pixel of a yuv420p AVFrame and converts it to RGB.
func readYUV420PPixel(_ frame: UnsafePointer<AVFrame>, x: Int, y: Int, in space: YUVColourSpace) -> RGBColor {
    func sample(_ plane: Int32, _ px: Int, _ py: Int) -> UInt8 {
        cff_frame_data(frame, plane)[py * Int(cff_frame_linesize(frame, plane)) + px]
    }
    return space.rgb(y: sample(0, x, y), u: sample(1, x / 2, y / 2), v: sample(2, x / 2, y / 2))
}
