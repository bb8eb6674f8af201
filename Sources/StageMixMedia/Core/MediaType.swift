internal import CFFmpeg

/// The kind of media a stream carries.
public enum MediaType: Sendable, Hashable {
    case video, audio, subtitle, data, unknown

    init(_ t: AVMediaType) {
        switch t {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        case AVMEDIA_TYPE_DATA: self = .data
        default: self = .unknown
        }
    }
}
