internal import CFFmpeg

/// How a picture's Y'CbCr values map to RGB: the matrix (BT.709, BT.601, ...) and the range
/// (limited "TV" 16-235/240, or full 0-255). StageMix's canvas and output are BT.709 limited.
public struct YUVColourSpace: Hashable, Sendable, CustomStringConvertible {
    public enum Matrix: String, Sendable, Hashable {
        case bt709, bt601, bt2020, fcc, smpte240m

        /// Luma weights of red and blue.
        var kr: Double {
            switch self {
            case .bt709: 0.2126
            case .bt601: 0.299
            case .bt2020: 0.2627
            case .fcc: 0.30
            case .smpte240m: 0.212
            }
        }
        var kb: Double {
            switch self {
            case .bt709: 0.0722
            case .bt601: 0.114
            case .bt2020: 0.0593
            case .fcc: 0.11
            case .smpte240m: 0.087
            }
        }
    }

    public var matrix: Matrix
    /// Full range (0-255) rather than limited (16-235 luma, 16-240 chroma).
    public var fullRange: Bool

    public init(matrix: Matrix, fullRange: Bool = false) {
        self.matrix = matrix
        self.fullRange = fullRange
    }

    public static let bt709 = YUVColourSpace(matrix: .bt709)
    public static let bt601 = YUVColourSpace(matrix: .bt601)

    public var description: String { "\(matrix.rawValue) \(fullRange ? "full" : "limited") range" }

    /// The colour space FFmpeg's tags give. An unspecified matrix is BT.601, as libswscale (and so
    /// the ffmpeg CLI and players built on it) assume; an unspecified range is limited.
    init(colorspace: AVColorSpace, range: AVColorRange, pixelFormat: Int32) {
        switch colorspace {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        case AVCOL_SPC_FCC: matrix = .fcc
        case AVCOL_SPC_SMPTE240M: matrix = .smpte240m
        default: matrix = .bt601
        }
        fullRange = range == AVCOL_RANGE_JPEG || Self.isFullRangeFormat(pixelFormat)
    }

    /// The deprecated `yuvj*` formats, which are full range whatever the tags say.
    static func isFullRangeFormat(_ format: Int32) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P]
            .map(\.rawValue).contains(format)
    }

    var avColorspace: AVColorSpace {
        switch matrix {
        case .bt709: AVCOL_SPC_BT709
        case .bt601: AVCOL_SPC_SMPTE170M
        case .bt2020: AVCOL_SPC_BT2020_NCL
        case .fcc: AVCOL_SPC_FCC
        case .smpte240m: AVCOL_SPC_SMPTE240M
        }
    }

    /// libswscale's coefficient table for the matrix.
    var swsColorspace: Int32 {
        switch matrix {
        case .bt709: SWS_CS_ITU709
        case .bt601: SWS_CS_ITU601
        case .bt2020: SWS_CS_BT2020
        case .fcc: SWS_CS_FCC
        case .smpte240m: SWS_CS_SMPTE240M
        }
    }

    /// The primaries and transfer written beside the matrix: BT.709's for BT.709, else BT.601's
    /// (StageMix converts matrix and range only, as the ffmpeg CLI does).
    var avPrimaries: AVColorPrimaries { matrix == .bt709 ? AVCOL_PRI_BT709 : AVCOL_PRI_SMPTE170M }
    var avTransfer: AVColorTransferCharacteristic { matrix == .bt709 ? AVCOL_TRC_BT709 : AVCOL_TRC_SMPTE170M }

    var avRange: AVColorRange { fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG }

    // MARK: Conversions of single colours (fills, tests, previews)

    /// Y'CbCr of an RGB colour, rounded to 8 bits.
    public func yuv(from c: RGBColor) -> (y: UInt8, u: UInt8, v: UInt8) {
        let (y, pb, pr) = normalised(r: Double(c.r) / 255, g: Double(c.g) / 255, b: Double(c.b) / 255)
        let code = encode(y: y, pb: pb, pr: pr)
        return (Self.clamp(code.y), Self.clamp(code.u), Self.clamp(code.v))
    }

    /// The RGB colour of 8-bit Y'CbCr values.
    public func rgb(y: UInt8, u: UInt8, v: UInt8) -> RGBColor {
        let (yy, pb, pr) = decode(y: Double(y), u: Double(u), v: Double(v))
        let (r, g, b) = rgb(y: yy, pb: pb, pr: pr)
        return RGBColor(r: Self.clamp(r * 255), g: Self.clamp(g * 255), b: Self.clamp(b * 255))
    }

    /// Y' in 0...1 and Pb, Pr in -0.5...0.5 from 8-bit code values.
    func decode(y: Double, u: Double, v: Double) -> (y: Double, pb: Double, pr: Double) {
        fullRange ? (y / 255, (u - 128) / 255, (v - 128) / 255)
            : ((y - 16) / 219, (u - 128) / 224, (v - 128) / 224)
    }

    /// 8-bit code values (unrounded) from Y', Pb, Pr.
    func encode(y: Double, pb: Double, pr: Double) -> (y: Double, u: Double, v: Double) {
        fullRange ? (255 * y, 128 + 255 * pb, 128 + 255 * pr)
            : (16 + 219 * y, 128 + 224 * pb, 128 + 224 * pr)
    }

    func rgb(y: Double, pb: Double, pr: Double) -> (r: Double, g: Double, b: Double) {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let r = y + 2 * (1 - kr) * pr
        let b = y + 2 * (1 - kb) * pb
        return (r, (y - kr * r - kb * b) / kg, b)
    }

    func normalised(r: Double, g: Double, b: Double) -> (y: Double, pb: Double, pr: Double) {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let y = kr * r + kg * g + kb * b
        return (y, (b - y) / (2 * (1 - kb)), (r - y) / (2 * (1 - kr)))
    }

    static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}
