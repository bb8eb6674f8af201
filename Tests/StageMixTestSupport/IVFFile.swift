public import Foundation

/// A VP8 IVF file cut into its frames, to damage at the byte level: claim another picture size in
/// the headers, break a frame's partition sizes, drop frames.
public struct IVFFile {
    /// The 32-byte file header.
    public var header: [UInt8]
    /// Each frame's timestamp and payload.
    public var frames: [(pts: UInt64, payload: [UInt8])]

    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 32, bytes[0..<4].elementsEqual("DKIF".utf8) else { throw IVFError.notIVF }
        header = Array(bytes[0..<32])
        frames = []
        var at = 32
        while at + 12 <= bytes.count {
            let size = Int(Self.le(bytes, at, 4))
            guard at + 12 + size <= bytes.count else { break }
            frames.append((Self.le(bytes, at + 4, 8), Array(bytes[(at + 12)..<(at + 12 + size)])))
            at += 12 + size
        }
    }

    public enum IVFError: Error { case notIVF }

    public var data: Data {
        var out = header
        let count = UInt32(frames.count)
        for i in 0..<4 { out[24 + i] = UInt8(truncatingIfNeeded: count >> (i * 8)) }
        for frame in frames {
            out += (0..<4).map { UInt8(truncatingIfNeeded: UInt32(frame.payload.count) >> ($0 * 8)) }
            out += (0..<8).map { UInt8(truncatingIfNeeded: frame.pts >> ($0 * 8)) }
            out += frame.payload
        }
        return Data(out)
    }

    /// VP8 frame tag bit 0 is clear on keyframes (RFC 6386, 9.1).
    public func isKeyframe(_ index: Int) -> Bool { frames[index].payload[0] & 1 == 0 }

    /// Claims `width`x`height` in the file header and every keyframe header.
    public mutating func claimSize(width: Int, height: Int, inFileHeader: Bool = true) {
        if inFileHeader {
            header[12] = UInt8(width & 0xff); header[13] = UInt8(width >> 8)
            header[14] = UInt8(height & 0xff); header[15] = UInt8(height >> 8)
        }
        for i in frames.indices where isKeyframe(i) {
            // After the 3-byte tag and the 9d 01 2a start code: 14-bit width and height, 2-bit scale.
            frames[i].payload[6] = UInt8(width & 0xff); frames[i].payload[7] = UInt8(width >> 8 & 0x3f)
            frames[i].payload[8] = UInt8(height & 0xff); frames[i].payload[9] = UInt8(height >> 8 & 0x3f)
        }
    }

    /// Makes frame `index` claim a first partition far longer than the frame: undecodable.
    public mutating func breakPartitions(_ index: Int) {
        frames[index].payload[0] |= 0xE0
        frames[index].payload[1] = 0xFF
        frames[index].payload[2] = 0xFF
    }

    static func le(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << ($1 * 8) }
    }
}
