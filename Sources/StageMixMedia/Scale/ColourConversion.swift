internal import CFFmpeg

/// Converts Y'CbCr pictures from one colour space to another in place, through lookup tables: the
/// conversion is linear in (Y', Cb, Cr), so each output value is a sum of one table entry per
/// input value. Luma uses the chroma sample of its 2x2 block (4:2:0). Built once per source colour
/// space; a source already in the target's space is never touched.
final class ColourConversion {
    let source: YUVColourSpace
    let target: YUVColourSpace
    /// Seven tables of 256, fixed point with 16 fractional bits:
    /// Y' = yy[Y] + yu[U] + yv[V], U' = uu[U] + uv[V], V' = vu[U] + vv[V].
    private let tables = UnsafeMutablePointer<Int32>.allocate(capacity: 7 * 256)
    private var yy: UnsafeMutablePointer<Int32> { tables }
    private var yu: UnsafeMutablePointer<Int32> { tables + 256 }
    private var yv: UnsafeMutablePointer<Int32> { tables + 512 }
    private var uu: UnsafeMutablePointer<Int32> { tables + 768 }
    private var uv: UnsafeMutablePointer<Int32> { tables + 1024 }
    private var vu: UnsafeMutablePointer<Int32> { tables + 1280 }
    private var vv: UnsafeMutablePointer<Int32> { tables + 1536 }

    deinit { tables.deallocate() }

    init(from source: YUVColourSpace, to target: YUVColourSpace) {
        self.source = source
        self.target = target
        // The 3x3 map from source (Y', Pb, Pr) to target (Y', Pb, Pr), column by column.
        func column(_ y: Double, _ pb: Double, _ pr: Double) -> (Double, Double, Double) {
            let rgb = source.rgb(y: y, pb: pb, pr: pr)
            return target.normalised(r: rgb.r, g: rgb.g, b: rgb.b)
        }
        let fromY = column(1, 0, 0), fromPb = column(0, 1, 0), fromPr = column(0, 0, 1)
        let one = 65536.0
        for code in 0..<256 {
            let c = Double(code)
            let (y, pb, pr) = source.decode(y: c, u: c, v: c)
            // Offsets (16, 128) ride on the luma and Cb tables; the target's scale is applied to each term.
            let yScale = target.fullRange ? 255.0 : 219.0, cScale = target.fullRange ? 255.0 : 224.0
            let yOffset = target.fullRange ? 0.0 : 16.0
            yy[code] = Int32((yOffset + yScale * fromY.0 * y) * one + one / 2)
            yu[code] = Int32((yScale * fromPb.0 * pb) * one)
            yv[code] = Int32((yScale * fromPr.0 * pr) * one)
            // Grey stays grey in any matrix: chroma does not depend on luma.
            uu[code] = Int32((128 + cScale * fromPb.1 * pb) * one + one / 2)
            uv[code] = Int32((cScale * fromPr.1 * pr) * one)
            vu[code] = Int32((128 + cScale * fromPb.2 * pb) * one + one / 2)
            vv[code] = Int32((cScale * fromPr.2 * pr) * one)
        }
    }

    /// Converts `rect` (even origin and size) of a yuv420p frame in place.
    func apply(to frame: UnsafeMutablePointer<AVFrame>, rect: Rect) {
        let yStride = Int(cff_frame_linesize(frame, 0)), uStride = Int(cff_frame_linesize(frame, 1)), vStride = Int(cff_frame_linesize(frame, 2))
        guard let yBase = cff_frame_data(frame, 0), let uBase = cff_frame_data(frame, 1), let vBase = cff_frame_data(frame, 2) else { return }
        let (yy, yu, yv, uu, uv, vu, vv) = (self.yy, self.yu, self.yv, self.uu, self.uv, self.vu, self.vv)
        for cy in 0..<(rect.height / 2) {
            let uRow = uBase + (rect.y / 2 + cy) * uStride + rect.x / 2
            let vRow = vBase + (rect.y / 2 + cy) * vStride + rect.x / 2
            let yRow0 = yBase + (rect.y + 2 * cy) * yStride + rect.x
            let yRow1 = yRow0 + yStride
            for cx in 0..<(rect.width / 2) {
                let u = Int(uRow[cx]), v = Int(vRow[cx])
                // Luma first: it needs the chroma as it was.
                let chroma = yu[u] &+ yv[v]
                let x = 2 * cx
                yRow0[x] = Self.byte(yy[Int(yRow0[x])] &+ chroma)
                yRow0[x + 1] = Self.byte(yy[Int(yRow0[x + 1])] &+ chroma)
                yRow1[x] = Self.byte(yy[Int(yRow1[x])] &+ chroma)
                yRow1[x + 1] = Self.byte(yy[Int(yRow1[x + 1])] &+ chroma)
                uRow[cx] = Self.byte(uu[u] &+ uv[v])
                vRow[cx] = Self.byte(vu[u] &+ vv[v])
            }
        }
    }

    @inline(__always)
    private static func byte(_ fixed: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: max(0, min(255, fixed >> 16)))
    }
}
