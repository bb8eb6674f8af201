/// Reads a bitstream most significant bit first, with Exp-Golomb codes (H.264 9.1); every read past
/// the end throws, so a damaged header cannot run away.
struct BitReader {
    struct Exhausted: Error {}

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bit() throws(Exhausted) -> UInt32 {
        guard position < bytes.count * 8 else { throw Exhausted() }
        defer { position += 1 }
        return UInt32(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
    }

    mutating func bits(_ count: Int) throws(Exhausted) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count { value = value << 1 | (try bit()) }
        return value
    }

    mutating func flag() throws(Exhausted) -> Bool { try bit() == 1 }

    /// ue(v); more than 31 leading zeros is not a valid code here.
    mutating func unsigned() throws(Exhausted) -> UInt32 {
        var zeros = 0
        while try bit() == 0 {
            zeros += 1
            guard zeros < 32 else { throw Exhausted() }
        }
        return (UInt32(1) << zeros) - 1 + (try bits(zeros))
    }

    /// se(v).
    mutating func signed() throws(Exhausted) -> Int32 {
        let k = try unsigned()
        return k & 1 == 1 ? Int32((k + 1) / 2) : -Int32(k / 2)
    }
}
