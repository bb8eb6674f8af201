import StageMixMedia

/// A rendition's encoder: takes the composed canvases (every one, or every `step`-th for a lower
/// frame rate), resizes them when its size is not the canvas's, encodes H.264 with keyframes at
/// the canvas's keyframe instants, and routes the packets to its containers.
final class VideoRendition: CanvasSink {
    let rendition: Rendition
    let encoder: VideoEncoder
    /// Canvas frames per frame of this rendition.
    let step: Int
    /// Canvas frames between keyframes (a multiple of `step`).
    let keyframeEvery: Int
    private let resizer: CanvasResizer?
    /// Where its packets go: (container, stream).
    var routes = PacketRoutes()

    init(_ rendition: Rendition, canvas: (width: Int, height: Int), canvasFps: Int, keyframeEvery: Int,
         settings: ComposeSettings, globalHeader: Bool) throws {
        let fps = rendition.fps ?? canvasFps
        guard fps > 0, canvasFps % fps == 0, keyframeEvery % (canvasFps / fps) == 0 else {
            throw MediaError(.invalidArgument, "rendition \(rendition.name) at \(fps) fps does not divide \(canvasFps) fps and \(keyframeEvery)-frame segments")
        }
        self.rendition = rendition
        step = canvasFps / fps
        self.keyframeEvery = keyframeEvery
        let rate: VideoEncoderSettings.RateControl
        switch rendition.rate {
        case .bitrate(let bps): rate = .bitrate(bps, maxRate: bps, bufferSize: bps * 2)
        case .crf(let crf): rate = .crf(crf)
        }
        encoder = try VideoEncoder(settings: VideoEncoderSettings(
            codecName: "libx264", width: rendition.width, height: rendition.height,
            frameRate: Rational(Int32(fps), 1), rateControl: rate, gopSize: keyframeEvery / step, preset: settings.preset,
            // MP4 and fMP4 want SPS/PPS out of band (and a ladder reads its CODECS there); MPEG-TS
            // segments then get them from the muxer before each keyframe.
            threadCount: settings.encoderThreads, globalHeader: globalHeader,
            options: ["sc_threshold": "0"]))
        resizer = (rendition.width, rendition.height) == (canvas.width, canvas.height) ? nil
            : try CanvasResizer(fromWidth: canvas.width, height: canvas.height, toWidth: rendition.width, height: rendition.height)
    }

    func take(_ canvas: CanvasFrame, index: Int) throws {
        guard index % step == 0 else { return }
        let picture = try resizer?.resize(canvas) ?? canvas
        try encoder.send(picture, pts: Int64(index / step), forceKeyframe: index % keyframeEvery == 0)
        try routes.drain(encoder.receive)
    }

    func finish() throws {
        try encoder.sendEndOfStream()
        try routes.drain(encoder.receive)
    }
}
