/// The picture size an H.264 sequence parameter set gives (H.264 7.3.2.1.1), cropping applied.
struct H264SequenceParameters {
    var width: Int
    var height: Int

    /// `nal` is the whole NAL unit, header byte first; nil when it is cut short or not an SPS.
    init?(nal: [UInt8]) {
        guard nal.count > 4, nal[0] & 0x1F == 7 else { return nil }
        var r = BitReader(Self.removingEmulationPrevention(nal.dropFirst()))
        guard let size = try? Self.parse(&r) else { return nil }
        (width, height) = size
    }

    private static func parse(_ r: inout BitReader) throws(BitReader.Exhausted) -> (Int, Int)? {
        let profile = try r.bits(8)
        _ = try r.bits(16)  // constraint flags, level
        _ = try r.unsigned()  // seq_parameter_set_id
        var chromaFormat: UInt32 = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaFormat = try r.unsigned()
            if chromaFormat == 3 { _ = try r.bit() }  // separate_colour_plane_flag
            _ = try r.unsigned()  // bit_depth_luma_minus8
            _ = try r.unsigned()  // bit_depth_chroma_minus8
            _ = try r.bit()  // qpprime_y_zero_transform_bypass_flag
            if try r.flag() {  // seq_scaling_matrix_present_flag
                for i in 0..<(chromaFormat == 3 ? 12 : 8) {
                    if try r.flag() { try skipScalingList(&r, size: i < 6 ? 16 : 64) }
                }
            }
        }
        _ = try r.unsigned()  // log2_max_frame_num_minus4
        switch try r.unsigned() {  // pic_order_cnt_type
        case 0: _ = try r.unsigned()
        case 1:
            _ = try r.bit()
            _ = try r.signed()
            _ = try r.signed()
            let cycle = try r.unsigned()
            guard cycle <= 255 else { return nil }
            for _ in 0..<cycle { _ = try r.signed() }
        default: break
        }
        _ = try r.unsigned()  // max_num_ref_frames
        _ = try r.bit()  // gaps_in_frame_num_value_allowed_flag
        let widthMbs = Int(try r.unsigned()) + 1
        let heightUnits = Int(try r.unsigned()) + 1
        let frameMbsOnly = Int(try r.bit())
        if frameMbsOnly == 0 { _ = try r.bit() }  // mb_adaptive_frame_field_flag
        _ = try r.bit()  // direct_8x8_inference_flag
        var width = widthMbs * 16
        var height = (2 - frameMbsOnly) * heightUnits * 16
        if try r.flag() {  // frame_cropping_flag
            let crop = (try r.unsigned(), try r.unsigned(), try r.unsigned(), try r.unsigned())
            let unitX = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
            let unitY = (chromaFormat == 1 ? 2 : 1) * (2 - frameMbsOnly)
            width -= unitX * (Int(crop.0) + Int(crop.1))
            height -= unitY * (Int(crop.2) + Int(crop.3))
        }
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else { return nil }
        return (width, height)
    }

    private static func skipScalingList(_ r: inout BitReader, size: Int) throws(BitReader.Exhausted) {
        var last = 8, next = 8
        for _ in 0..<size {
            if next != 0 { next = ((last + Int(try r.signed())) % 256 + 256) % 256 }
            if next != 0 { last = next }
        }
    }

    /// The RBSP: each 00 00 03 becomes 00 00.
    static func removingEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for b in bytes {
            if zeros >= 2, b == 3 {
                zeros = 0
                continue
            }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }
}
