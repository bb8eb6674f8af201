import StageMixMedia

/// The mixed audio's AAC encoder and where its packets go: the one audio of every rendition. A
/// chunked run's join takes packets the session's audio work encoded instead (``write(encoded:)``),
/// from an encoder opened with the same settings; its own then only gives the streams their parameters.
final class AudioOutput {
    let encoder: AudioEncoder
    var routes = PacketRoutes()
    /// Whether the packets come from elsewhere: the encoder here is then never fed, nor flushed.
    private var encodedElsewhere = false

    init(encoder: AudioEncoder) { self.encoder = encoder }

    func send(planar: [[Float]]) throws {
        if !planar[0].isEmpty { try encoder.send(planar: planar) }
        try routes.drain(encoder.receive)
    }

    /// A packet the session's audio work encoded, in the order its encoder gave it out.
    func write(encoded packet: Packet) throws {
        encodedElsewhere = true
        try routes.write(packet)
    }

    func finish() throws {
        if encodedElsewhere { return }
        try encoder.sendEndOfStream()
        try routes.drain(encoder.receive)
    }
}
