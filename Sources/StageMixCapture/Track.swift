/// Audio or video.
public enum TrackKind: String, Sendable, Hashable, Codable { case video, audio }

/// Where a track's media comes from.
public enum TrackSource: String, Sendable, Hashable, Codable {
    case camera
    case microphone
    case screenShare = "screen_share"
    case screenShareAudio = "screen_share_audio"

    /// The role right needed to publish this source.
    public var requiredRight: PublishRight {
        switch self {
        case .camera: return .video
        case .microphone, .screenShareAudio: return .audio
        case .screenShare: return .screen
        }
    }
}

/// Simulcast quality, ordered low < medium < high.
public enum LayerQuality: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case low, medium, high
    private var rank: Int { switch self { case .low: 0; case .medium: 1; case .high: 2 } }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

/// One simulcast layer of a video track: a nominal size and its media file.
public struct TrackLayer: Sendable, Hashable, Codable {
    public var quality: LayerQuality
    public var width: Int
    public var height: Int
    /// Relative to the capture directory.
    public var file: String
    /// Overrides the track's `startOffsetMs` for this layer.
    public var startOffsetMs: Int?
    public init(quality: LayerQuality, width: Int, height: Int, file: String, startOffsetMs: Int? = nil) {
        self.quality = quality; self.width = width; self.height = height; self.file = file
        self.startOffsetMs = startOffsetMs
    }
}

/// A published media track. Video tracks carry `layers`; audio tracks a single `file`.
public struct Track: Sendable, Hashable, Codable {
    public var id: String
    public var participantId: String
    public var kind: TrackKind
    public var source: TrackSource
    public var startOffsetMs: Int
    /// Video: one or more simulcast layers, sorted by area ascending. Empty for audio.
    public var layers: [TrackLayer]
    /// Audio: the media file, relative to the capture directory. `nil` for video.
    public var file: String?

    public init(id: String, participantId: String, kind: TrackKind, source: TrackSource,
                startOffsetMs: Int = 0, layers: [TrackLayer] = [], file: String? = nil) {
        self.id = id; self.participantId = participantId; self.kind = kind; self.source = source
        self.startOffsetMs = startOffsetMs
        self.layers = layers.sorted { $0.width * $0.height < $1.width * $1.height }
        self.file = file
    }

    public func layer(_ quality: LayerQuality) -> TrackLayer? { layers.first { $0.quality == quality } }
    /// The session time of a layer's first sample.
    public func startOffsetMs(of layer: TrackLayer) -> Int { layer.startOffsetMs ?? startOffsetMs }
}
