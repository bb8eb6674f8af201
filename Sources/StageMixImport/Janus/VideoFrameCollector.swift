/// Groups ordered video packets into pictures by RTP timestamp. Padding-only packets only carry
/// sequence numbers; a picture over `maxBytes` (or `maxPackets`) is marked too large and its
/// payloads are not kept, so memory stays bounded whatever the input.
struct VideoFrameCollector {
    static let maxBytes = 8 << 20
    static let maxPackets = 16_384

    private var current: CollectedFrame?
    private var bytes = 0
    /// A gap seen since the last media packet (on it or on padding before it).
    private var gapPending = false

    /// The picture being gathered, in ticks: its end is known only when the next one starts.
    var pendingTicks: Int64? { current?.ticks }

    /// Takes the next packet; returns the picture it completes, if any.
    mutating func push(_ packet: SequencedPacket) -> CollectedFrame? {
        gapPending = gapPending || packet.gapBefore
        guard !packet.rtp.isPadding else { return nil }
        let gap = gapPending
        gapPending = false
        if var frame = current, frame.ticks == packet.ticks, !packet.startsNewSource {
            frame.gapInside = frame.gapInside || gap
            append(packet, to: &frame)
            current = frame
            return nil
        }
        var done = current
        done?.gapAfter = gap
        var frame = CollectedFrame(packets: [], ticks: packet.ticks, gapBefore: gap, gapInside: false, gapAfter: false, tooLarge: false)
        bytes = 0
        append(packet, to: &frame)
        current = frame
        return done
    }

    /// The last picture; its end is known only by its marker.
    mutating func finish() -> CollectedFrame? {
        defer { current = nil }
        current?.gapAfter = true
        return current
    }

    private mutating func append(_ packet: SequencedPacket, to frame: inout CollectedFrame) {
        guard !frame.tooLarge else { return }
        bytes += packet.rtp.payload.count
        if bytes > Self.maxBytes || frame.packets.count >= Self.maxPackets {
            frame.tooLarge = true
            frame.packets = [frame.packets.first ?? packet]
            return
        }
        frame.packets.append(packet)
    }
}
