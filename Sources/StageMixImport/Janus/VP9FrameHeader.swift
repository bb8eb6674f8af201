/// What a VP9 frame's uncompressed header (VP9 bitstream 6.2) says: keyframe or not and, for a
/// keyframe, the picture size. Superframes (several frames in one packet, Annex B) are split first.
struct VP9FrameHeader {
    var isKeyframe: Bool
    var width: Int?
    var height: Int?

    init?(_ frame: ArraySlice<UInt8>) {
        var r = BitReader(Array(frame.prefix(16)))
        guard let parsed = try? Self.parse(&r) else { return nil }
        self = parsed
    }

    private init(isKeyframe: Bool, width: Int?, height: Int?) {
        self.isKeyframe = isKeyframe
        self.width = width
        self.height = height
    }

    private static func parse(_ r: inout BitReader) throws(BitReader.Exhausted) -> VP9FrameHeader? {
        guard try r.bits(2) == 2 else { return nil }  // frame_marker
        let low = try r.bit(), high = try r.bit()
        let profile = high << 1 | low
        if profile == 3 { _ = try r.bit() }
        if try r.flag() { return VP9FrameHeader(isKeyframe: false, width: nil, height: nil) }  // show_existing_frame
        let key = try r.bit() == 0
        _ = try r.bits(2)  // show_frame, error_resilient_mode
        guard key else { return VP9FrameHeader(isKeyframe: false, width: nil, height: nil) }
        guard try r.bits(24) == 0x49_83_42 else { return nil }
        if profile >= 2 { _ = try r.bit() }  // ten_or_twelve_bit
        if try r.bits(3) != 7 {  // color_space other than sRGB
            _ = try r.bit()
            if profile == 1 || profile == 3 { _ = try r.bits(3) }
        } else if profile == 1 || profile == 3 {
            _ = try r.bit()
        }
        let width = Int(try r.bits(16)) + 1, height = Int(try r.bits(16)) + 1
        return VP9FrameHeader(isKeyframe: true, width: width, height: height)
    }

    /// The frames of a superframe (its index at the end: marker 110xxyyy, sizes, marker again), or the
    /// packet itself when it has no valid index.
    static func frames(in data: [UInt8]) -> [ArraySlice<UInt8>] {
        guard let marker = data.last, marker & 0xE0 == 0xC0 else { return [data[...]] }
        let count = Int(marker & 0x07) + 1, sizeBytes = Int(marker >> 3 & 0x03) + 1
        let indexSize = 2 + sizeBytes * count
        guard data.count >= indexSize, data[data.count - indexSize] == marker else { return [data[...]] }
        var frames: [ArraySlice<UInt8>] = []
        var at = 0, entry = data.count - indexSize + 1
        for _ in 0..<count {
            let size = (0..<sizeBytes).reduce(0) { $0 | Int(data[entry + $1]) << (8 * $1) }
            entry += sizeBytes
            guard size > 0, at + size <= data.count - indexSize else { return [data[...]] }
            frames.append(data[at..<(at + size)])
            at += size
        }
        return frames
    }

    /// Joins frames into one superframe with an index (a single frame stays as it is).
    static func superframe(_ frames: [ArraySlice<UInt8>]) -> [UInt8] {
        guard frames.count > 1 else { return Array(frames.first ?? []) }
        let largest = frames.map(\.count).max() ?? 0
        let sizeBytes = largest < 1 << 8 ? 1 : largest < 1 << 16 ? 2 : largest < 1 << 24 ? 3 : 4
        let marker = UInt8(0xC0 | (sizeBytes - 1) << 3 | (frames.count - 1))
        var out = Array(frames.joined())
        out.append(marker)
        for f in frames { for i in 0..<sizeBytes { out.append(UInt8(truncatingIfNeeded: f.count >> (8 * i))) } }
        out.append(marker)
        return out
    }
}
