/// What a synthesized capture contains, written beside it as `expected.json`: each
/// participant's colour and tone, and for each track when it flows and which files hold it.
/// Tests and people read it to know what a composition of the capture should show and sound like.
public struct ExpectedMedia: Sendable, Hashable, Codable {
    public var sessionId: String
    public var codec: String
    public var frameRate: Int
    public var keyframeInterval: Int
    public var durationMs: Int
    /// How the moving marker is drawn, in words.
    public var marker: String
    public var participants: [Participant]
    public var tracks: [Track]

    public struct Participant: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
        /// `#RRGGBB` of their camera.
        public var color: String
        /// Their microphone's tone in Hz; nil when silent.
        public var toneHz: Double?
    }

    public struct Track: Sendable, Hashable, Codable {
        public var id: String
        public var participantId: String
        public var source: String
        /// Video: the colour every layer shows.
        public var color: String?
        /// Audio: the tone, nil when silent.
        public var toneHz: Double?
        public var startOffsetMs: Int
        /// `[start, end)` in ms: published.
        public var published: [[Int]]
        /// `[start, end)` in ms: paused (video: no frames; audio: silence).
        public var paused: [[Int]]
        public var layers: [Layer]?
        public var file: String?
    }

    public struct Layer: Sendable, Hashable, Codable {
        public var quality: String
        public var width: Int
        public var height: Int
        public var file: String
        /// Frames written to the file.
        public var frames: Int
    }

    public func participant(_ id: String) -> Participant? { participants.first { $0.id == id } }
    public func track(_ id: String) -> Track? { tracks.first { $0.id == id } }
}
