public import StageMixCapture
import StageMixMedia

/// A participant and the tracks they may publish, with the colour their camera shows and the
/// tone their microphone plays, so that a test knows what to look for.
public struct ScenarioParticipant: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    /// `#RRGGBB`: the solid colour of every layer of their camera.
    public var color: String
    /// The microphone's sine tone in Hz; nil or 0 is digital silence.
    public var toneHz: Double?
    public var tracks: [ScenarioTrack]

    public init(id: String, name: String, color: String, toneHz: Double?, tracks: [ScenarioTrack] = []) {
        self.id = id
        self.name = name
        self.color = color
        self.toneHz = toneHz
        self.tracks = tracks
    }

    /// A participant with the `index`-th palette colour and tone, publishing `tracks`.
    public static func palette(_ index: Int, id: String, name: String, tracks: [ScenarioTrack]) -> ScenarioParticipant {
        ScenarioParticipant(id: id, name: name, color: Palette.colors[index % Palette.colors.count],
                            toneHz: Palette.tones[index % Palette.tones.count], tracks: tracks)
    }

    /// The tone to synthesize, or nil for silence.
    var audibleToneHz: Double? { toneHz.flatMap { $0 > 0 ? $0 : nil } }
}

/// One track a participant may publish. Video tracks get simulcast layers by source unless
/// `layers` says otherwise; files are named after the track id.
public struct ScenarioTrack: Sendable, Hashable, Codable {
    public var id: String
    public var source: TrackSource
    /// Video only: the layers to encode; nil means the source's default.
    public var layers: [ScenarioLayer]?
    /// Video only: overrides the participant's colour (a screen share has its own).
    public var color: String?

    public init(id: String, source: TrackSource, layers: [ScenarioLayer]? = nil, color: String? = nil) {
        self.id = id
        self.source = source
        self.layers = layers
        self.color = color
    }

    public var kind: TrackKind {
        switch source {
        case .camera, .screenShare: return .video
        case .microphone, .screenShareAudio: return .audio
        }
    }

    /// The layers to encode: camera 320x180/640x360/1280x720, screen share 1920x1080 only.
    public var effectiveLayers: [ScenarioLayer] {
        if let layers { return layers }
        switch source {
        case .camera: return ScenarioLayer.cameraSimulcast
        case .screenShare: return [ScenarioLayer(quality: .high, width: 1920, height: 1080)]
        case .microphone, .screenShareAudio: return []
        }
    }

    /// The colour this track shows: its own, else its participant's, else the screen-share colour.
    func color(of participant: ScenarioParticipant) -> String {
        color ?? (source == .screenShare ? Palette.screenShare : participant.color)
    }
}

/// One simulcast layer to encode.
public struct ScenarioLayer: Sendable, Hashable, Codable {
    public var quality: LayerQuality
    public var width: Int
    public var height: Int
    public init(quality: LayerQuality, width: Int, height: Int) {
        self.quality = quality
        self.width = width
        self.height = height
    }

    public static let cameraSimulcast = [
        ScenarioLayer(quality: .low, width: 320, height: 180),
        ScenarioLayer(quality: .medium, width: 640, height: 360),
        ScenarioLayer(quality: .high, width: 1280, height: 720),
    ]
}
