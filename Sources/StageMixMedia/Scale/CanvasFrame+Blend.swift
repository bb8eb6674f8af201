internal import CFFmpeg

extension CanvasFrame {
    /// Lays `color` over `rect` at `opacity` (0 leaves it, 1 paints it): a translucent plate. The
    /// rectangle is clipped and aligned for 4:2:0 as `fill` does, so chroma blends whole 2x2 blocks.
    public func blend(rect: Rect, color: RGBColor, opacity: Double) throws(MediaError) {
        let alpha = Int(max(0, min(1, opacity)) * 255 + 0.5)
        guard alpha > 0 else { return }
        guard alpha < 255 else { return try fill(rect: rect, color: color) }
        try makeWritable()
        guard let r = clip(rect) else { return }
        let yuv = colourSpace.yuv(from: color)
        blendPlane(0, x: r.x, y: r.y, width: r.width, height: r.height, value: yuv.y, alpha: alpha)
        blendPlane(1, x: r.x / 2, y: r.y / 2, width: r.width / 2, height: r.height / 2, value: yuv.u, alpha: alpha)
        blendPlane(2, x: r.x / 2, y: r.y / 2, width: r.width / 2, height: r.height / 2, value: yuv.v, alpha: alpha)
    }

    /// Lays `color` over the canvas through `mask`, its top-left corner at `origin` (rounded down to
    /// even): each luma sample by its own coverage, each chroma sample by the mean coverage of its
    /// 2x2 block, so antialiased edges keep their colour in 4:2:0. Parts off the canvas are skipped.
    public func blend(_ mask: CoverageMask, at origin: (x: Int, y: Int), color: RGBColor) throws(MediaError) {
        try makeWritable()
        let x0 = origin.x & ~1, y0 = origin.y & ~1
        // The blocks of the mask's area that lie on the canvas.
        guard let area = clip(Rect(x: x0, y: y0, width: (mask.width + 1) & ~1, height: (mask.height + 1) & ~1))
        else { return }
        let yuv = colourSpace.yuv(from: color)
        let lumaBase = cff_frame_data(pointer, 0)!, lumaStride = Int(cff_frame_linesize(pointer, 0))
        let uBase = cff_frame_data(pointer, 1)!, uStride = Int(cff_frame_linesize(pointer, 1))
        let vBase = cff_frame_data(pointer, 2)!, vStride = Int(cff_frame_linesize(pointer, 2))
        mask.coverage.withUnsafeBufferPointer { coverage in
            func at(_ x: Int, _ y: Int) -> Int {
                let mx = x - x0, my = y - y0
                return mx < mask.width && my < mask.height ? Int(coverage[my * mask.width + mx]) : 0
            }
            for y in stride(from: area.y, to: area.y + area.height, by: 2) {
                for x in stride(from: area.x, to: area.x + area.width, by: 2) {
                    let a00 = at(x, y), a10 = at(x + 1, y), a01 = at(x, y + 1), a11 = at(x + 1, y + 1)
                    let sum = a00 + a10 + a01 + a11
                    guard sum > 0 else { continue }
                    let top = lumaBase + y * lumaStride + x, bottom = top + lumaStride
                    top[0] = Self.mix(top[0], yuv.y, a00)
                    top[1] = Self.mix(top[1], yuv.y, a10)
                    bottom[0] = Self.mix(bottom[0], yuv.y, a01)
                    bottom[1] = Self.mix(bottom[1], yuv.y, a11)
                    let u = uBase + (y / 2) * uStride + x / 2, v = vBase + (y / 2) * vStride + x / 2
                    u[0] = Self.mix(u[0], yuv.u, (sum + 2) / 4)
                    v[0] = Self.mix(v[0], yuv.v, (sum + 2) / 4)
                }
            }
        }
    }

    private func blendPlane(_ plane: Int32, x: Int, y: Int, width: Int, height: Int, value: UInt8, alpha: Int) {
        let base = cff_frame_data(pointer, plane)!
        let stride = Int(cff_frame_linesize(pointer, plane))
        for row in y..<(y + height) {
            let line = base + row * stride + x
            for column in 0..<width { line[column] = Self.mix(line[column], value, alpha) }
        }
    }

    /// `under` moved towards `over` by `alpha`/255, rounded.
    @inline(__always)
    private static func mix(_ under: UInt8, _ over: UInt8, _ alpha: Int) -> UInt8 {
        let u = Int(under)
        return UInt8(truncatingIfNeeded: u + ((Int(over) - u) * alpha + (Int(over) >= u ? 127 : -127)) / 255)
    }
}
