/// The packets of one video picture (one RTP timestamp) in order, and what the sequence numbers say
/// about packets missing around and inside it.
struct CollectedFrame {
    var packets: [SequencedPacket]
    /// The picture's media time (ticks).
    var ticks: Int64
    /// Packets are missing just before the first one: the picture's start may be lost.
    var gapBefore: Bool
    /// Packets are missing between two of its packets.
    var gapInside: Bool
    /// Packets are missing right after the last one: the picture's end may be lost.
    var gapAfter: Bool
    /// Over the assembly bound: the picture is dropped.
    var tooLarge: Bool

    var last: RTPPacket { packets[packets.count - 1].rtp }
    /// The last packet has the marker bit, or the next packet follows it without a gap.
    var endIsKnown: Bool { last.marker || !gapAfter }
}
