public import Foundation

/// An Ogg file cut into its pages, to damage on purpose at the byte level: move granule positions
/// (a timestamp gap), or change a byte and leave the CRC stale (a page the reader must drop).
public struct OggPages {
    public var pages: [[UInt8]]

    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var pages: [[UInt8]] = []
        var at = 0
        while at + 27 <= bytes.count {
            guard bytes[at..<at + 4].elementsEqual("OggS".utf8) else { throw OggError.noPageAt(at) }
            let segments = Int(bytes[at + 26])
            let body = bytes[(at + 27)..<(at + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = at + 27 + segments + body
            guard end <= bytes.count else { throw OggError.noPageAt(at) }
            pages.append(Array(bytes[at..<end]))
            at = end
        }
        self.pages = pages
    }

    public enum OggError: Error { case noPageAt(Int) }

    public var data: Data { Data(pages.joined()) }

    /// The page's granule position (for Opus, 48 kHz samples up to the end of the page).
    public func granule(_ index: Int) -> Int64 {
        (0..<8).reduce(Int64(0)) { $0 | Int64(pages[index][6 + $1]) << ($1 * 8) }
    }

    /// Sets the page's granule position and recomputes its CRC, so the page stays valid.
    public mutating func setGranule(_ index: Int, _ value: Int64) {
        for i in 0..<8 { pages[index][6 + i] = UInt8(truncatingIfNeeded: value >> (i * 8)) }
        fixCRC(index)
    }

    /// Flips a byte in the page's body, leaving the CRC as it was: the page no longer checks.
    public mutating func breakBody(_ index: Int) {
        let header = 27 + Int(pages[index][26])
        pages[index][header + (pages[index].count - header) / 2] ^= 0x5A
    }

    public mutating func fixCRC(_ index: Int) {
        for i in 22..<26 { pages[index][i] = 0 }
        let crc = Self.crc(pages[index])
        for i in 0..<4 { pages[index][22 + i] = UInt8(truncatingIfNeeded: crc >> (i * 8)) }
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, zero start, no final xor.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
