import Foundation
import StageMixMedia

/// One rendition's video of one chunk: its encoder's packets in a NUT file in the run's work folder,
/// read back when the chunks are joined. NUT keeps the packets and their presentation times as
/// they are; the decoding times it does not keep are restamped at the join from the reorder
/// delay noted here.
final class ChunkVideoFile: PacketSink {
    private let muxer: Muxer
    /// The first packet's presentation time less its decoding time, in the encoder's ticks.
    private(set) var reorderDelay = 0
    private(set) var packets = 0

    init(url: URL, encoder: VideoEncoder) throws(MediaError) {
        muxer = try Muxer(url: url, format: "nut")
        _ = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
    }

    func write(_ packet: Packet, toStream index: Int) throws(MediaError) {
        if packets == 0, let pts = packet.pts, let dts = packet.dts { reorderDelay = Int(pts - dts) }
        packets += 1
        try muxer.write(packet, toStream: 0)
    }

    func finish() throws(MediaError) { try muxer.finish() }
}
