/// VP9 pictures from RTP: the layer frames of one picture (B to E, one per spatial layer present)
/// joined into a superframe, which a decoder shows at the highest layer. A picture whose layer frame
/// lacks a packet, or whose lowest layer is missing, is lost.
struct VP9Depacketizer: VideoDepacketizer {
    mutating func assemble(_ frame: CollectedFrame) -> FrameAssembly {
        guard !frame.tooLarge else { return .lost(.frameTooLarge) }
        guard !frame.gapInside, frame.endIsKnown else { return .lost(.missingPackets) }
        var layerFrames: [[UInt8]] = []
        var open: [UInt8]?
        var sizes: [(width: Int, height: Int)] = []
        var highestLayer = 0
        for (i, packet) in frame.packets.enumerated() {
            let payload = packet.rtp.payload
            guard let d = VP9Descriptor(payload) else { return .lost(.unreadablePayload) }
            if i == 0, frame.gapBefore, d.spatialLayer > 0 { return .lost(.missingPackets) }
            if !d.layerSizes.isEmpty { sizes = d.layerSizes }
            highestLayer = max(highestLayer, d.spatialLayer)
            if d.begins {
                guard open == nil else { return .lost(.missingPackets) }
                open = []
            }
            guard open != nil else { return .lost(.missingPackets) }
            open! += payload[d.length...]
            if d.ends || (i == frame.packets.count - 1 && packet.rtp.marker) {
                layerFrames.append(open!)
                open = nil
            }
        }
        guard open == nil else { return .lost(.missingPackets) }
        let frames = layerFrames.flatMap({ VP9FrameHeader.frames(in: $0) }).filter({ !$0.isEmpty })
        guard !frames.isEmpty, frames.count <= 8, let first = VP9FrameHeader(frames[0]) else { return .lost(.unreadablePayload) }
        var width: Int?, height: Int?
        for header in frames.compactMap { VP9FrameHeader($0) } {
            if let w = header.width, let h = header.height, w * h > (width ?? 0) * (height ?? 0) { (width, height) = (w, h) }
        }
        if first.isKeyframe, highestLayer < sizes.count {
            let top = sizes[highestLayer]
            if top.width * top.height > (width ?? 0) * (height ?? 0) { (width, height) = (top.width, top.height) }
        }
        return .frame(bytes: VP9FrameHeader.superframe(frames), isKeyframe: first.isKeyframe, width: width, height: height)
    }
}
