/// What a decoder's `receive()` produced: a frame, a request for more input,
/// or the end of the stream after a flush.
public enum DecoderOutput<Frame> {
    case frame(Frame)
    case needsInput
    case endOfStream
}

extension DecoderOutput: Sendable where Frame: Sendable {}
