/// A plain RTP packet (RFC 3550) as a Janus recording holds it: header, CSRCs and header extension
/// (one-byte `0xBEDE` or two-byte `0x100x` profile) skipped, padding removed.
struct RTPPacket {
    var marker: Bool
    var payloadType: UInt8
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var ssrc: UInt32
    var payload: [UInt8]

    /// A padding-only packet (or one with an empty payload): it takes a sequence number, carries no media.
    var isPadding: Bool { payload.isEmpty }

    /// Nil when the bytes are not an RTP version 2 packet whose lengths fit.
    init?(_ b: [UInt8]) {
        guard b.count >= 12, b[0] >> 6 == 2 else { return nil }
        var start = 12 + 4 * Int(b[0] & 0x0F)
        if b[0] & 0x10 != 0 {
            guard start + 4 <= b.count else { return nil }
            start += 4 + 4 * (Int(b[start + 2]) << 8 | Int(b[start + 3]))
        }
        var end = b.count
        if b[0] & 0x20 != 0 {
            guard let padding = b.last, padding > 0 else { return nil }
            end -= Int(padding)
        }
        guard start <= end else { return nil }
        marker = b[1] & 0x80 != 0
        payloadType = b[1] & 0x7F
        sequenceNumber = UInt16(b[2]) << 8 | UInt16(b[3])
        timestamp = (4..<8).reduce(UInt32(0)) { $0 << 8 | UInt32(b[$1]) }
        ssrc = (8..<12).reduce(UInt32(0)) { $0 << 8 | UInt32(b[$1]) }
        payload = Array(b[start..<end])
    }
}
