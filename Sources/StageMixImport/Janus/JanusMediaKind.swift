/// What a Janus recorder wrote (the header's `t`): audio, video or a data channel.
public enum JanusMediaKind: String, Sendable {
    case audio, video, data

    /// The header's one-letter `t`.
    init?(letter: String) {
        switch letter {
        case "a": self = .audio
        case "v": self = .video
        case "d": self = .data
        default: return nil
        }
    }
}
