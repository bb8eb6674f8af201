import StageMixMedia

/// The mixed audio's AAC encoder and where its packets go: the one audio of every rendition.
final class AudioOutput {
    let encoder: AudioEncoder
    var routes: [(sink: any PacketSink, stream: Int)] = []

    init(encoder: AudioEncoder) { self.encoder = encoder }

    func send(planar: [[Float]]) throws {
        if !planar[0].isEmpty { try encoder.send(planar: planar) }
        try drain()
    }

    func finish() throws {
        try encoder.sendEndOfStream()
        try drain()
    }

    private func drain() throws {
        while case .packet(let packet) = try encoder.receive() {
            for route in routes { try route.sink.write(packet, toStream: route.stream) }
        }
    }
}
