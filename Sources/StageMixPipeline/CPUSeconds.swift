/// Where a composition's CPU time went, in CPU seconds (a second of one core fully busy is 1).
/// `total` is the whole process, every thread, from the encoders' opening to the last segment;
/// the decoding thread's share is split by stage, and the rest (`encodeMux`) is x264, AAC and the muxer.
public struct CPUSeconds: Sendable, Codable, Equatable {
    public var total: Double
    /// Everything but the decoding thread: nearly all x264 and AAC.
    public var encodeMux: Double
    /// The decoding thread, all of it: the three stages below and its frame loop.
    public var decodeThread: Double
    /// Demuxing and decoding the shown video layers.
    public var videoDecode: Double
    /// Scaling or copying pictures into the canvas, and fills.
    public var videoCompose: Double
    /// Reading, decoding and mixing the microphones.
    public var audioDecodeMix: Double
    /// The audio-only loudness pass before composing (decoding and measuring every microphone once).
    public var loudnessPass: Double

    /// `total` for the whole process; `clock` has the decoding thread's time, all of it charged.
    init(total: Double, clock: StageClock, loudnessPass: Double = 0) {
        func ms(_ s: Double) -> Double { (s * 1000).rounded() / 1000 }
        self.total = ms(total)
        decodeThread = ms(clock.total)
        encodeMux = ms(max(0, total - clock.total - loudnessPass))
        self.loudnessPass = ms(loudnessPass)
        videoDecode = ms(clock[.videoDecode])
        videoCompose = ms(clock[.videoCompose])
        audioDecodeMix = ms(clock[.audioDecodeMix])
    }
}

extension CPUSeconds {
    /// Two parts of one composition's CPU time together (the chunks of a chunked run, and its join).
    public static func + (a: CPUSeconds, b: CPUSeconds) -> CPUSeconds {
        // To the millisecond, as each part is.
        func sum(_ part: KeyPath<CPUSeconds, Double>) -> Double { ((a[keyPath: part] + b[keyPath: part]) * 1000).rounded() / 1000 }
        var both = a
        both.total = sum(\.total)
        both.encodeMux = sum(\.encodeMux)
        both.decodeThread = sum(\.decodeThread)
        both.videoDecode = sum(\.videoDecode)
        both.videoCompose = sum(\.videoCompose)
        both.audioDecodeMix = sum(\.audioDecodeMix)
        both.loudnessPass = sum(\.loudnessPass)
        return both
    }
}
