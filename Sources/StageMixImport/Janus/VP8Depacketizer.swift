/// VP8 pictures from RTP (RFC 7741): each payload descriptor (X, then I/L/T/K extensions) is skipped;
/// a picture must start with S=1 and partition 0 and have every packet up to its end.
struct VP8Depacketizer: VideoDepacketizer {
    /// The descriptor's length, and whether the packet starts partition 0 of a picture; nil when cut short.
    static func descriptor(_ p: [UInt8]) -> (length: Int, startsPicture: Bool)? {
        guard let first = p.first else { return nil }
        var length = 1
        if first & 0x80 != 0 {
            guard p.count > 1 else { return nil }
            let x = p[1]
            length = 2
            if x & 0x80 != 0 {  // I: picture id, 7 or 15 bits
                guard p.count > length else { return nil }
                length += p[length] & 0x80 != 0 ? 2 : 1
            }
            if x & 0x40 != 0 { length += 1 }  // L: TL0PICIDX
            if x & 0x30 != 0 { length += 1 }  // T or K: TID/Y/KEYIDX
        }
        guard length <= p.count else { return nil }
        return (length, first & 0x10 != 0 && first & 0x07 == 0)
    }

    mutating func assemble(_ frame: CollectedFrame) -> FrameAssembly {
        guard !frame.tooLarge else { return .lost(.frameTooLarge) }
        guard !frame.gapInside, frame.endIsKnown else { return .lost(.missingPackets) }
        var bytes: [UInt8] = []
        for (i, packet) in frame.packets.enumerated() {
            let payload = packet.rtp.payload
            guard let d = Self.descriptor(payload) else { return .lost(.unreadablePayload) }
            if i == 0, !d.startsPicture { return .lost(.missingPackets) }
            bytes += payload[d.length...]
        }
        guard bytes.count >= 3 else { return .lost(.unreadablePayload) }
        // Frame tag bit 0 clear: a keyframe, whose header gives 14-bit width and height after 9d 01 2a (RFC 6386, 9.1).
        let isKeyframe = bytes[0] & 1 == 0
        guard isKeyframe, bytes.count >= 10, bytes[3] == 0x9D, bytes[4] == 0x01, bytes[5] == 0x2A else {
            return .frame(bytes: bytes, isKeyframe: false, width: nil, height: nil)
        }
        let width = (Int(bytes[7]) << 8 | Int(bytes[6])) & 0x3FFF
        let height = (Int(bytes[9]) << 8 | Int(bytes[8])) & 0x3FFF
        return .frame(bytes: bytes, isKeyframe: true, width: width, height: height)
    }
}
