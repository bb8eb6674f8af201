/// H.264 pictures from RTP (RFC 6184, packetization modes 0 and 1) as Annex B access units: single
/// NAL units (types 1-23), STAP-A (24) and FU-A (28). STAP-B, MTAP and FU-B (interleaved mode) are
/// refused. A keyframe is an access unit with an IDR slice; one without its SPS and PPS gets the last
/// ones seen, so that it decodes on its own.
struct H264Depacketizer: VideoDepacketizer {
    private var sequenceParameters: [UInt8]?
    private var pictureParameters: [UInt8]?
    private static let startCode: [UInt8] = [0, 0, 0, 1]

    mutating func assemble(_ frame: CollectedFrame) -> FrameAssembly {
        guard !frame.tooLarge else { return .lost(.frameTooLarge) }
        guard !frame.gapInside, frame.endIsKnown else { return .lost(.missingPackets) }
        var nals: [[UInt8]] = []
        var fragment: [UInt8]?
        for packet in frame.packets {
            let p = packet.rtp.payload
            let type = p[0] & 0x1F
            switch type {
            case 1...23:
                guard fragment == nil else { return .lost(.missingPackets) }
                nals.append(p)
            case 24:
                guard fragment == nil else { return .lost(.missingPackets) }
                var at = 1
                while at + 2 <= p.count {
                    let size = Int(p[at]) << 8 | Int(p[at + 1])
                    at += 2
                    guard size > 0, at + size <= p.count else { return .lost(.unreadablePayload) }
                    nals.append(Array(p[at..<(at + size)]))
                    at += size
                }
            case 28:
                guard p.count >= 2 else { return .lost(.unreadablePayload) }
                let start = p[1] & 0x80 != 0, end = p[1] & 0x40 != 0
                if start {
                    guard fragment == nil else { return .lost(.missingPackets) }
                    fragment = [p[0] & 0xE0 | p[1] & 0x1F]
                }
                guard fragment != nil else { return .lost(.missingPackets) }
                fragment! += p[2...]
                if end {
                    nals.append(fragment!)
                    fragment = nil
                }
            case 25, 26, 27, 29:
                let name = [25: "STAP-B", 26: "MTAP16", 27: "MTAP24", 29: "FU-B"][type]!
                return .lost(.unreadablePayload, warning: "H.264 \(name) packets (interleaved mode) are not supported; those pictures are lost")
            default:
                continue  // 0, 30, 31: not NAL unit types of RFC 6184
            }
        }
        guard fragment == nil, !nals.isEmpty else { return .lost(.missingPackets) }
        if frame.gapBefore, !Self.startsAccessUnit(nals[0]) { return .lost(.missingPackets) }
        return annexB(nals)
    }

    private mutating func annexB(_ nals: [[UInt8]]) -> FrameAssembly {
        var width: Int?, height: Int?
        var hasParameters = false
        for nal in nals {
            switch nal[0] & 0x1F {
            case 7:
                sequenceParameters = nal
                hasParameters = true
                if let sps = H264SequenceParameters(nal: nal) { (width, height) = (sps.width, sps.height) }
            case 8: pictureParameters = nal
            default: break
            }
        }
        let isKeyframe = nals.contains { $0[0] & 0x1F == 5 }
        var bytes: [UInt8] = []
        if isKeyframe, !hasParameters, let sps = sequenceParameters, let pps = pictureParameters {
            bytes += Self.startCode + sps + Self.startCode + pps
            if let size = H264SequenceParameters(nal: sps) { (width, height) = (size.width, size.height) }
        }
        for nal in nals { bytes += Self.startCode + nal }
        return .frame(bytes: bytes, isKeyframe: isKeyframe, width: width, height: height)
    }

    /// Whether a NAL unit can only begin an access unit: a delimiter, SEI, parameter set, or the
    /// first slice of a picture (first_mb_in_slice 0).
    static func startsAccessUnit(_ nal: [UInt8]) -> Bool {
        switch nal[0] & 0x1F {
        case 6, 7, 8, 9: return true
        case 1, 5:
            var r = BitReader(Array(nal.dropFirst().prefix(8)))
            return (try? r.unsigned()) == 0
        default: return false
        }
    }
}
