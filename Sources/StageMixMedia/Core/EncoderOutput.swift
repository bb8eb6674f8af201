/// What an encoder's `receive()` produced: a packet, a request for more input,
/// or the end of the stream after `sendEndOfStream()`.
public enum EncoderOutput: Sendable {
    case packet(Packet)
    case needsInput
    case endOfStream
}
