internal import CFFmpeg

/// Resizes whole canvases to one other size, for the smaller renditions of a ladder: the composite is
/// made once, at the largest size, and each smaller rendition is scaled from it. Values stay as they are
/// (the same colour space in and out); the output canvas and the scaler are made once and reused.
/// Shrinking is area averaging (no aliasing at 3:1): the fused kernel's (``TileFit``, what swscale's
/// `SWS_AREA` computes, in half its time) where it applies (1080p to 720p), swscale's `SWS_AREA`
/// where it does not (1080p to 360p). Growing (never done by a ladder) is swscale's bicubic.
public final class CanvasResizer: @unchecked Sendable {
    public let output: CanvasFrame
    private let sws: OpaquePointer?
    private let fit: TileFit?
    private let sourceWidth: Int
    private let sourceHeight: Int

    public init(fromWidth sourceWidth: Int, height sourceHeight: Int, toWidth width: Int, height: Int,
                colourSpace: YUVColourSpace = .bt709) throws(MediaError) {
        output = try CanvasFrame(width: width, height: height, colourSpace: colourSpace)
        guard sourceWidth > 0, sourceHeight > 0 else {
            throw MediaError(.invalidArgument, "canvas scaler \(sourceWidth)x\(sourceHeight) -> \(width)x\(height)")
        }
        let shrinking = width <= sourceWidth && height <= sourceHeight
        if shrinking, let fit = TileFit.preferred(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height) {
            self.fit = fit
            sws = nil
        } else {
            // Growing, shrinking past what the kernel takes (about 1.7:1 across: 1080p to 360p), or no AVX2: swscale.
            guard let sws = sws_getContext(Int32(sourceWidth), Int32(sourceHeight), AV_PIX_FMT_YUV420P, Int32(width), Int32(height),
                                           AV_PIX_FMT_YUV420P, shrinking ? SWS_AREA : SWS_BICUBIC, nil, nil, nil) else {
                throw MediaError(.outOfMemory, "canvas scaler \(sourceWidth)x\(sourceHeight) -> \(width)x\(height)")
            }
            let table = sws_getCoefficients(colourSpace.swsColorspace)
            let range: Int32 = colourSpace.fullRange ? 1 : 0
            _ = sws_setColorspaceDetails(sws, table, range, table, range, 0, 1 << 16, 1 << 16)
            self.sws = sws
            fit = nil
        }
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }

    deinit { sws_freeContext(sws) }

    /// `canvas` at the output's size, in ``output`` (overwritten by the next call).
    @discardableResult
    public func resize(_ canvas: CanvasFrame) throws(MediaError) -> CanvasFrame {
        guard canvas.width == sourceWidth, canvas.height == sourceHeight else {
            throw MediaError(.invalidArgument, "canvas scaler made for \(sourceWidth)x\(sourceHeight), got \(canvas.width)x\(canvas.height)")
        }
        // An encoder may still hold the last picture: write into a buffer of our own.
        try output.makeWritable()
        if let fit {
            fit.fit(canvas.pointer, origin: (0, 0), into: output.pointer, rect: Rect(x: 0, y: 0, width: output.width, height: output.height),
                    conversion: nil)
            return output
        }
        let src = try Scaler.planePointers(canvas.pointer, origin: Rect(x: 0, y: 0, width: sourceWidth, height: sourceHeight))
        let dst = try Scaler.planePointers(output.pointer, origin: Rect(x: 0, y: 0, width: output.width, height: output.height))
        _ = try ffCheck(sws_scale(sws, src.data.map { UnsafePointer($0) }, src.strides, 0, Int32(sourceHeight), dst.data, dst.strides), .invalidArgument,
                        "canvas \(sourceWidth)x\(sourceHeight) -> \(output.width)x\(output.height)")
        return output
    }
}
