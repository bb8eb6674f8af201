import StageMixMedia

/// One rendition's video as the output's containers see it: its size and frame rate, where its
/// codec parameters come from (the encoder of a whole run, or a chunk's file when chunks are
/// joined).
final class VideoStream {
    enum Origin {
        case encoder(VideoEncoder)
        /// A chunk's stream, its packets restamped in one tick a frame (as an encoder stamps them).
        case chunks(StreamInfo)
    }

    let rendition: Rendition
    let fps: Int
    let origin: Origin

    init(rendition: Rendition, fps: Int, origin: Origin) {
        self.rendition = rendition
        self.fps = fps
        self.origin = origin
    }

    /// A rendition's encoder, as a whole run feeds the containers.
    convenience init(_ encoded: VideoRendition) {
        let rate = encoded.encoder.settings.frameRate
        self.init(rendition: encoded.rendition, fps: Int(rate.numerator / max(1, rate.denominator)), origin: .encoder(encoded.encoder))
    }

    /// The RFC 6381 codec name, from the global header; nil without one.
    var codecString: String? {
        switch origin {
        case .encoder(let encoder): encoder.codecString
        case .chunks(let stream): H264CodecString.from(stream.extradata)
        }
    }

    func addStream(to muxer: HLSMuxer) throws(MediaError) -> Int {
        switch origin {
        case .encoder(let encoder): try muxer.addStream(from: encoder)
        case .chunks(let stream): try muxer.addStream(copying: stream, timeBase: Rational(1, Int32(fps)))
        }
    }

    func addStream(to muxer: Muxer) throws(MediaError) -> Int {
        switch origin {
        case .encoder(let encoder): try muxer.addStream(from: encoder)
        case .chunks(let stream): try muxer.addStream(copying: stream, timeBase: Rational(1, Int32(fps)))
        }
    }
}
