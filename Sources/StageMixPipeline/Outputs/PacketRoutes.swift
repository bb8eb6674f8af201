import StageMixMedia

/// Where one encoder's packets go: (container, stream) pairs, each write a new reference to the
/// same packet.
struct PacketRoutes {
    private var routes: [(sink: any PacketSink, stream: Int)] = []

    mutating func append(_ sink: any PacketSink, stream: Int) { routes.append((sink, stream)) }

    /// Takes every packet the encoder has ready and writes it to every route.
    func drain(_ receive: () throws(MediaError) -> EncoderOutput) throws {
        while case .packet(let packet) = try receive() { try write(packet) }
    }

    /// Writes `packet` to every route.
    func write(_ packet: Packet) throws {
        for route in routes { try route.sink.write(packet, toStream: route.stream) }
    }
}
