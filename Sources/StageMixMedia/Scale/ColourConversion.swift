internal import CFFmpeg
internal import CStageMixKernels

/// Converts Y'CbCr pictures from one colour space to another in place. The conversion (decode the
/// source's range, undo its matrix, apply the target's, encode the target's range) is linear in the
/// code values, so it is nine fixed-point coefficients and three offsets: Y' depends on Y, Cb, Cr;
/// Cb' and Cr' on Cb and Cr only (grey stays grey in any matrix). Luma takes the chroma of its 2x2
/// block (4:2:0). Built once per source colour space; a source already in the target's is never touched.
///
/// It runs on every tile of every frame whose camera is not BT.709 limited (all VP8), so the row loops
/// are C (CStageMixKernels), which the compiler vectorises, in an AVX2 build where the CPU has it:
/// chroma in 32-bit lanes, luma in 16-bit lanes (Y' = (yY6·Y + term) >> 6, the chroma's share `term`
/// kept per row at 6 fractional bits).
final class ColourConversion {
    let source: YUVColourSpace
    let target: YUVColourSpace
    private static let shift: Int32 = 14
    /// Y' = (yY·Y + yU·(U−128) + yV·(V−128) + yK) >> shift, and the same for U' and V' without Y, as
    /// the C row loops take them (luma's own coefficient `yY6` at 6 fractional bits, for 16-bit lanes).
    private var matrix: smk_colour_matrix
    /// One row of the chroma's share of luma (offsets and rounding included, 6 fractional bits),
    /// duplicated to luma width.
    private var chromaTerm: UnsafeMutablePointer<Int16>
    private var chromaTermCapacity = 0

    init(from source: YUVColourSpace, to target: YUVColourSpace) {
        self.source = source
        self.target = target
        // The 3x3 map from source (Y', Pb, Pr) to target (Y', Pb, Pr), column by column.
        func column(_ y: Double, _ pb: Double, _ pr: Double) -> (Double, Double, Double) {
            let rgb = source.rgb(y: y, pb: pb, pr: pr)
            return target.normalised(r: rgb.r, g: rgb.g, b: rgb.b)
        }
        let fromY = column(1, 0, 0), fromPb = column(0, 1, 0), fromPr = column(0, 0, 1)
        let (syScale, scScale, syOffset) = source.fullRange ? (255.0, 255.0, 0.0) : (219.0, 224.0, 16.0)
        let (tyScale, tcScale, tyOffset) = target.fullRange ? (255.0, 255.0, 0.0) : (219.0, 224.0, 16.0)
        let one = Double(1 << Self.shift)
        func fixed(_ v: Double) -> Int32 { Int32((v * one).rounded()) }
        let yY = fixed(tyScale * fromY.0 / syScale)
        matrix = smk_colour_matrix(
            yU: fixed(tyScale * fromPb.0 / scScale), yV: fixed(tyScale * fromPr.0 / scScale),
            // The source's luma offset moves through yY; +0.5 rounds.
            yK: fixed(tyOffset - tyScale * fromY.0 / syScale * syOffset + 0.5),
            uU: fixed(tcScale * fromPb.1 / scScale), uV: fixed(tcScale * fromPr.1 / scScale), uK: fixed(128.5),
            vU: fixed(tcScale * fromPb.2 / scScale), vV: fixed(tcScale * fromPr.2 / scScale), vK: fixed(128.5),
            shift: Self.shift, yY6: Int16(clamping: (yY + (1 << (Self.shift - 7))) >> (Self.shift - 6)))
        chromaTerm = UnsafeMutablePointer<Int16>.allocate(capacity: 1)
    }

    deinit { chromaTerm.deallocate() }

    /// The coefficients as the C kernels take them, for the fused tile fit (``TileFit``).
    func withMatrix<R>(_ body: (UnsafePointer<smk_colour_matrix>) -> R) -> R { body(&matrix) }

    /// Converts `rect` (even origin and size) of a yuv420p frame in place.
    func apply(to frame: UnsafeMutablePointer<AVFrame>, rect: Rect) {
        convert(from: frame, origin: (rect.x, rect.y), to: frame, rect: rect)
    }

    /// Reads the `rect`-sized area of `source` at `origin` and writes it converted into `rect` of
    /// `destination`: a copy and a conversion in one pass. The two may be the same frame and area.
    func convert(from source: UnsafeMutablePointer<AVFrame>, origin: (x: Int, y: Int),
                 to destination: UnsafeMutablePointer<AVFrame>, rect: Rect) {
        func plane(_ f: UnsafeMutablePointer<AVFrame>, _ p: Int32) -> (UnsafeMutablePointer<UInt8>, Int)? {
            cff_frame_data(f, p).map { ($0, Int(cff_frame_linesize(f, p))) }
        }
        guard let (sy, syStride) = plane(source, 0), let (su, suStride) = plane(source, 1), let (sv, svStride) = plane(source, 2),
              let (dy, dyStride) = plane(destination, 0), let (du, duStride) = plane(destination, 1), let (dv, dvStride) = plane(destination, 2)
        else { return }
        let width = rect.width, chromaWidth = rect.width / 2
        if chromaTermCapacity < width {
            chromaTerm.deallocate()
            chromaTerm = UnsafeMutablePointer<Int16>.allocate(capacity: width)
            chromaTermCapacity = width
        }
        let term = chromaTerm
        for cy in 0..<(rect.height / 2) {
            let uIn = su + (origin.y / 2 + cy) * suStride + origin.x / 2, vIn = sv + (origin.y / 2 + cy) * svStride + origin.x / 2
            let uOut = du + (rect.y / 2 + cy) * duStride + rect.x / 2, vOut = dv + (rect.y / 2 + cy) * dvStride + rect.x / 2
            // Chroma first: its share of luma is kept (from the values as they were), then it is converted.
            smk_convert_chroma_row(uIn, vIn, uOut, vOut, term, Int32(chromaWidth), &matrix)
            for row in 0..<2 {
                let yIn = sy + (origin.y + 2 * cy + row) * syStride + origin.x
                let yOut = dy + (rect.y + 2 * cy + row) * dyStride + rect.x
                smk_convert_luma_row(yIn, yOut, term, Int32(width), &matrix)
            }
        }
    }
}
