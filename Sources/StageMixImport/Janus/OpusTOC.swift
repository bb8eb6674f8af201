/// What an Opus packet's table-of-contents byte says (RFC 6716, section 3.1): how many 48 kHz
/// samples the packet holds, and whether it is coded as stereo.
struct OpusTOC {
    var samples: Int
    var isStereo: Bool

    /// Nil for an empty packet, a code-3 packet without its frame count, or more than 120 ms.
    init?(_ packet: [UInt8]) {
        guard let toc = packet.first else { return nil }
        let config = Int(toc >> 3)
        let frameSamples: Int
        switch config {
        case 0...11: frameSamples = [480, 960, 1920, 2880][config % 4]  // SILK: 10, 20, 40, 60 ms
        case 12...15: frameSamples = [480, 960][config % 2]  // hybrid: 10, 20 ms
        default: frameSamples = [120, 240, 480, 960][config % 4]  // CELT: 2.5, 5, 10, 20 ms
        }
        let frames: Int
        switch toc & 3 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default:
            guard packet.count >= 2 else { return nil }
            frames = Int(packet[1] & 0x3F)
        }
        samples = frames * frameSamples
        guard samples > 0, samples <= 5760 else { return nil }
        isStereo = toc & 0x04 != 0
    }
}
