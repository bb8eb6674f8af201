/// An RTP packet put in sending order, with its media time.
struct SequencedPacket {
    var rtp: RTPPacket
    /// When it arrived, ms since the header's `u`.
    var arrivalMs: Int64
    /// Media time in clock units (90 kHz, 48 kHz) since the RTP time of the file's first packet,
    /// unwrapped; a new SSRC continues from when its first packet arrived.
    var ticks: Int64
    /// Packets are missing just before this one (a sequence gap), or a new SSRC starts here.
    var gapBefore: Bool
    /// The first packet of a new SSRC (not the file's first).
    var startsNewSource: Bool
}
