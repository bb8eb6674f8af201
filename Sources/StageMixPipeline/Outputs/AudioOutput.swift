import StageMixMedia

/// The mixed audio's AAC encoder and where its packets go: the one audio of every rendition.
final class AudioOutput {
    let encoder: AudioEncoder
    var routes = PacketRoutes()

    init(encoder: AudioEncoder) { self.encoder = encoder }

    func send(planar: [[Float]]) throws {
        if !planar[0].isEmpty { try encoder.send(planar: planar) }
        try routes.drain(encoder.receive)
    }

    func finish() throws {
        try encoder.sendEndOfStream()
        try routes.drain(encoder.receive)
    }
}
