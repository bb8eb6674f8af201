import StageMixMedia

/// Where one encoder's packets go: (container, stream) pairs, each write a new reference to the
/// same packet. A route may end: it takes no packet that starts `end` or later after the first one it
/// took (an audio-only playlist ends with the video's last segment, not one AAC frame after it).
final class PacketRoutes {
    private var routes: [(sink: any PacketSink, stream: Int, end: Int64?)] = []
    /// The first packet's timestamp, which containers make their zero.
    private var firstPts: Int64?

    func append(_ sink: any PacketSink, stream: Int, endingAfter end: Int64? = nil) { routes.append((sink, stream, end)) }

    /// Ends the route to `sink` after `end` (a followed run learns where only when the session ends).
    func end(_ sink: any PacketSink, after end: Int64) {
        for index in routes.indices where routes[index].sink === sink { routes[index].end = end }
    }

    /// Takes every packet the encoder has ready and writes it to every route that has not ended.
    func drain(_ receive: () throws(MediaError) -> EncoderOutput) throws {
        while case .packet(let packet) = try receive() { try write(packet) }
    }

    /// Writes `packet` to every route that has not ended.
    func write(_ packet: Packet) throws {
        let pts = packet.pts ?? 0
        if firstPts == nil { firstPts = pts }
        let elapsed = pts - (firstPts ?? 0)
        for route in routes where route.end.map({ elapsed < $0 }) ?? true {
            try route.sink.write(packet, toStream: route.stream)
        }
    }
}
