/// BT.709 limited-range ("TV") conversion between RGB and Y'CbCr, 8 bits.
enum BT709 {
    private static let kr = 0.2126, kb = 0.0722
    private static let kg = 1 - kr - kb

    static func yuv(from c: RGBColor) -> (y: UInt8, u: UInt8, v: UInt8) {
        let r = Double(c.r) / 255, g = Double(c.g) / 255, b = Double(c.b) / 255
        let y = kr * r + kg * g + kb * b
        let pb = (b - y) / (2 * (1 - kb))
        let pr = (r - y) / (2 * (1 - kr))
        return (clamp(16 + 219 * y), clamp(128 + 224 * pb), clamp(128 + 224 * pr))
    }

    static func rgb(y: UInt8, u: UInt8, v: UInt8) -> RGBColor {
        let yy = (Double(y) - 16) / 219
        let pb = (Double(u) - 128) / 224
        let pr = (Double(v) - 128) / 224
        let r = yy + 2 * (1 - kr) * pr
        let b = yy + 2 * (1 - kb) * pb
        let g = (yy - kr * r - kb * b) / kg
        return RGBColor(r: clamp(r * 255), g: clamp(g * 255), b: clamp(b * 255))
    }

    private static func clamp(_ v: Double) -> UInt8 {
        UInt8(max(0, min(255, v.rounded())))
    }
}
