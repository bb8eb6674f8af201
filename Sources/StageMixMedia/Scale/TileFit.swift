internal import CFFmpeg
internal import CStageMixKernels

/// One source size fitted to one tile size by the fused kernel of `CStageMixKernels` (tile_fit.c):
/// each source row resampled across once, the output rows combined down straight into the canvas and
/// converted to the canvas's colour space while they are in the cache, with no picture in between.
/// Area averaging where an axis shrinks, bilinear where it grows, as swscale's `SWS_AREA` computes them.
/// For yuv420p and yuvj420p sources (every VP8, H.264 and AV1 camera this project has seen), shrinking
/// at most about 1.7:1 across (the init throws otherwise); AVX2 rows where the CPU has them, plain C
/// rows beside them. ``Scaler`` and ``CanvasResizer`` use swscale for the rest.
final class TileFit {
    private let fit: OpaquePointer

    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws(MediaError) {
        guard let fit = smk_fit_create(Int32(sourceWidth), Int32(sourceHeight), Int32(width), Int32(height)) else {
            throw MediaError(.invalidArgument, "cannot fit \(sourceWidth)x\(sourceHeight) into \(width)x\(height)")
        }
        self.fit = fit
    }

    deinit { smk_fit_free(fit) }

    /// Whether the kernel takes pictures of this format (8-bit planar 4:2:0).
    static func accepts(_ format: PixelFormat) -> Bool {
        format == .yuv420p || format == PixelFormat(AV_PIX_FMT_YUVJ420P)
    }

    /// Whether the fitted rows run as AVX2 on this CPU.
    static var usesAVX2: Bool { smk_fit_uses_avx2() != 0 }

    /// A plan where the kernel is the fast way: it takes the sizes, and the CPU runs its AVX2 rows
    /// (without AVX2, swscale's own SIMD beats the plain C rows). Nil: use swscale.
    static func preferred(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> TileFit? {
        guard usesAVX2 else { return nil }
        return try? TileFit(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
    }

    /// Fits the area of `source` at `origin` (even) of the size this plan was made for into `rect` of
    /// `destination` (the tile size it was made for, even origin), converted by `conversion` when given.
    /// `portable`: the plain C rows even on an AVX2 CPU (tests compare the two).
    func fit(_ source: UnsafeMutablePointer<AVFrame>, origin: (x: Int, y: Int), into destination: UnsafeMutablePointer<AVFrame>,
             rect: Rect, conversion: ColourConversion?, portable: Bool = false) {
        withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: 3) { src in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { dst in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 6) { strides in
                    for plane in 0..<3 {
                        let shift = plane == 0 ? 0 : 1
                        let sStride = cff_frame_linesize(source, Int32(plane)), dStride = cff_frame_linesize(destination, Int32(plane))
                        src[plane] = UnsafePointer(cff_frame_data(source, Int32(plane))
                            .map { $0 + (origin.y >> shift) * Int(sStride) + (origin.x >> shift) })
                        dst[plane] = cff_frame_data(destination, Int32(plane)).map { $0 + (rect.y >> shift) * Int(dStride) + (rect.x >> shift) }
                        strides[plane] = sStride
                        strides[3 + plane] = dStride
                    }
                    let run = { (matrix: UnsafePointer<smk_colour_matrix>?) in
                        smk_fit_picture(self.fit, src.baseAddress, strides.baseAddress, dst.baseAddress, strides.baseAddress! + 3,
                                        matrix, portable ? 1 : 0)
                    }
                    if let conversion { conversion.withMatrix(run) } else { run(nil) }
                }
            }
        }
    }
}
