internal import CFFmpeg

/// A video codec whose packets arrive already encoded (depacketized RTP, remuxing), for a muxer
/// stream declared without an encoder.
public enum VideoCodecID: String, Sendable, Hashable {
    case vp8, vp9, h264

    var av: AVCodecID {
        switch self {
        case .vp8: AV_CODEC_ID_VP8
        case .vp9: AV_CODEC_ID_VP9
        case .h264: AV_CODEC_ID_H264
        }
    }
}
