import StageMixMedia

/// The video codec and container of synthesized layers.
public enum SynthCodec: String, Sendable, Hashable, CaseIterable {
    /// VP8 (libvpx, realtime deadline, cpu-used 8) in WebM.
    case vp8
    /// H.264 (libx264 ultrafast, zerolatency: no B-frames) in MP4.
    case h264

    public var fileExtension: String { self == .vp8 ? "webm" : "mp4" }
    /// The decoder name a demuxer reports for the stream.
    public var decoderName: String { rawValue }

    /// Encoder settings for one layer. Solid colours compress to almost nothing, so the targets
    /// are low; one thread per encoder, since layers are encoded side by side.
    func settings(width: Int, height: Int, frameRate: Int, keyframeInterval: Int, colourSpace: YUVColourSpace) -> VideoEncoderSettings {
        switch self {
        case .vp8:
            return VideoEncoderSettings(
                codecName: "libvpx", width: width, height: height, frameRate: Rational(Int32(frameRate), 1),
                rateControl: .crf(12), gopSize: keyframeInterval,
                preset: "realtime", threadCount: 1, options: ["cpu-used": "8"], colourSpace: .bt601)
        case .h264:
            return VideoEncoderSettings(
                codecName: "libx264", width: width, height: height, frameRate: Rational(Int32(frameRate), 1),
                rateControl: .crf(30), gopSize: keyframeInterval, preset: "ultrafast", tune: "zerolatency",
                threadCount: 1, colourSpace: colourSpace)
        }
    }

    /// The colour space pictures are drawn in: VP8 is BT.601 limited by definition (its decoders
    /// report bt470bg whatever the container says), H.264 what the synthesizer asks for.
    func colourSpace(h264: YUVColourSpace) -> YUVColourSpace { self == .vp8 ? .bt601 : h264 }
}
