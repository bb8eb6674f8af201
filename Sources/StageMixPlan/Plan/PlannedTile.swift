public import StageMixLayout
public import StageMixCapture

/// One tile of the composite during an interval: whose, where, and what it shows.
public struct PlannedTile: Sendable, Hashable, Codable {
    /// What a tile shows.
    public enum Show: String, Sendable, Hashable, Codable {
        /// Live video from `track` at `layer`.
        case video
        /// The last frame received before the stream paused.
        case heldFrame = "held_frame"
        /// The participant's placeholder: no video to show.
        case placeholder
    }

    public var participantId: String
    public var name: String
    public var source: SourceKind
    public var region: String
    public var rect: Rect
    public var z: Int
    public var fit: Fit
    public var show: Show
    /// The subscribed video track behind the tile (also while muted or paused), if any.
    public var trackId: String?
    /// The layer subscribed for the tile, when a track is.
    public var layer: LayerChoice?
    /// Why the tile shows the placeholder: `no_video`, `muted`, `paused`.
    public var placeholderReason: String?
    /// The name drawn in a corner of the tile, over whatever it shows; nil for none.
    public var label: PlannedLabel?

    public init(participantId: String, name: String, source: SourceKind, region: String, rect: Rect, z: Int, fit: Fit,
                show: Show, trackId: String?, layer: LayerChoice?, placeholderReason: String?, label: PlannedLabel? = nil) {
        self.participantId = participantId; self.name = name; self.source = source; self.region = region
        self.rect = rect; self.z = z; self.fit = fit; self.show = show; self.trackId = trackId; self.layer = layer
        self.placeholderReason = placeholderReason
        self.label = label
    }

    /// Pixels of video flowing to this tile, counted by billing: only live video carries any.
    public var flowingPixels: Int {
        guard show == .video, let layer else { return 0 }
        return layer.width * layer.height
    }
}

/// An audio track mixed during an interval.
public struct PlannedAudio: Sendable, Hashable, Codable {
    public var participantId: String
    public var trackId: String
    public var source: TrackSource
    /// Relative to the capture directory.
    public var file: String
    /// A muted track stays subscribed but is mixed as silence.
    public var muted: Bool
}
