import Foundation

/// Every option of a composition, declared once: `stagemix compose` parses them, `stagemix enqueue`
/// parses the same and stores them in the job, and the worker turns them back into `compose`'s
/// arguments. A field left nil takes compose's default. ``validate()`` is the one range check.
public struct ComposeOptions: Sendable, Codable, Hashable {
    // What to show and how it is billed.
    public var layout: String?
    public var resolution: String?
    public var fps: Int?
    public var pauseGrace: Double?
    public var prices: String?
    public var tiers: String?
    public var overflowTier: String?
    /// An edit file (docs/edits.md): participants left out, microphones muted, after the session.
    public var edits: String?
    /// Participants' names on their tiles (the layout's labels); nil is on, `false` is `--labels off`.
    public var labels: Bool?
    // How it is encoded and segmented.
    public var segmentSeconds: Double?
    public var segmentFormat: String?
    public var preset: String?
    public var videoBitrate: String?
    public var crf: Double?
    public var audioBitrate: String?
    public var encoderThreads: Int?
    /// Integrated loudness target in LUFS, such as `-16`, or `off`.
    public var loudness: String?
    /// Also write `composition.mp4` (progressive, `moov` first) from the same encoded packets.
    public var mp4: Bool?
    /// Seconds between thumbnails (with a poster and a WebVTT track); nil for none.
    public var thumbnails: Double?
    /// An adaptive-bitrate ladder, `1920x1080@6000k,1280x720@3000k,640x360@800k`: one encode per
    /// rendition from one composite, a master playlist; nil for the single rendition.
    public var renditions: String?
    // Where it goes.
    /// May an earlier StageMix output be replaced?
    public var overwrite: Bool?
    // How the work is shared out.
    /// Encode the video in consecutive time ranges of this many seconds (a whole number of segments),
    /// each by a process of its own, then join them (docs/chunks.md); nil composes in one piece.
    public var chunkSeconds: Double?
    /// How many chunks are encoded at once; nil is one per core.
    public var jobs: Int?
    /// Compose a capture while it is recorded (`compose --follow`, docs/follow.md); nil: a finished capture.
    public var follow: Bool?

    public init(layout: String? = nil, resolution: String? = nil, fps: Int? = nil, pauseGrace: Double? = nil,
                prices: String? = nil, tiers: String? = nil, overflowTier: String? = nil,
                segmentSeconds: Double? = nil, segmentFormat: String? = nil, preset: String? = nil,
                videoBitrate: String? = nil, crf: Double? = nil, audioBitrate: String? = nil,
                encoderThreads: Int? = nil, loudness: String? = nil, mp4: Bool? = nil, thumbnails: Double? = nil, renditions: String? = nil,
                overwrite: Bool? = nil, chunkSeconds: Double? = nil, jobs: Int? = nil) {
        self.layout = layout
        self.resolution = resolution
        self.fps = fps
        self.pauseGrace = pauseGrace
        self.prices = prices
        self.tiers = tiers
        self.overflowTier = overflowTier
        self.segmentSeconds = segmentSeconds
        self.segmentFormat = segmentFormat
        self.preset = preset
        self.videoBitrate = videoBitrate
        self.crf = crf
        self.audioBitrate = audioBitrate
        self.encoderThreads = encoderThreads
        self.loudness = loudness
        self.mp4 = mp4
        self.thumbnails = thumbnails
        self.renditions = renditions
        self.overwrite = overwrite
        self.chunkSeconds = chunkSeconds
        self.jobs = jobs
    }

    public static let defaultLayout = "grid"
    public static let defaultSegmentSeconds = 4.0
    public static let defaultPreset = "veryfast"
    public static let defaultVideoBitrate = 3_000_000
    public static let defaultAudioBitrate = 128_000
    public static let defaultPauseGraceSeconds = 3.0
    public static let defaultSegmentFormat = "ts"
    /// 0 lets x264 choose.
    public static let defaultEncoderThreads = 0
    /// Streaming platforms play at -14 to -16 LUFS; -16 leaves headroom for speech.
    public static let defaultLoudnessLUFS = -16.0
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
    public static let segmentFormats = ["ts", "fmp4"]

    /// Output sizes: even, at least 16x16, at most 8K.
    public static let maxWidth = 7680, maxHeight = 4320, minSide = 16
    public static let fpsRange = 1...120
    public static let segmentSecondsRange = 0.5...60.0
    public static let pauseGraceRange = 0.0...3600.0
    public static let crfRange = 0.0...51.0
    public static let videoBitrateRange = 100_000...100_000_000
    public static let audioBitrateRange = 8_000...512_000
    public static let encoderThreadsRange = 0...64
    public static let loudnessRange = -40.0 ... -5.0
    public static let thumbnailSecondsRange = 1.0...3600.0
    public static let chunkSecondsRange = 1.0...86_400.0
    public static let jobsRange = 1...64

    /// The ladder, largest rendition first; nil without `renditions` (or when it does not parse).
    public var ladder: [RenditionSpec]? { renditions.flatMap(RenditionSpec.list).map(RenditionSpec.ordered) }

    /// The output size: `resolution`, or the ladder's largest rendition.
    public var canvasSize: String? {
        resolution ?? ladder.map { "\($0[0].width)x\($0[0].height)" }
    }

    /// `loudness` as a target: nil for `off`, the default (-16) when not given.
    public var loudnessTarget: Double? {
        guard let loudness else { return Self.defaultLoudnessLUFS }
        return loudness.lowercased() == "off" ? nil : Double(loudness)
    }
}
