/// Somewhere encoded packets go: a container file (``Muxer``) or an HLS rendition (``HLSMuxer``).
/// An encoder's output is routed to one or more of them, each write a new reference to the same
/// packet, never a copy.
public protocol PacketSink: AnyObject {
    func write(_ packet: Packet, toStream index: Int) throws(MediaError)
}

extension Muxer: PacketSink {}
extension HLSMuxer: PacketSink {}
