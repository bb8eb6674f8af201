public import Foundation

/// A capture's `session.json` in the contract's JSON shape (`stagemix.capture/1`), as plain values:
/// what a capture source that makes captures (the synthesizer, importers of other platforms'
/// recordings) fills in. It is not a capture until it is checked: ``Capture/init(manifest:directory:)``
/// reads it through the same reader and rules as a `session.json` on disk, so no capture escapes them.
public struct CaptureManifest: Sendable, Hashable, Codable {
    public var format = CaptureReader.formatIdentifier
    public var sessionId: String
    /// RFC 3339 UTC, such as `2026-11-20T18:00:00.000Z`.
    public var startedAt: String
    public var roles: [String: Role]?
    public var participants: [Participant]
    public var tracks: [Track]
    /// In time order, ending with `session.ended`.
    public var events: [ManifestEvent]
    /// A capture in progress (the contract's "A capture in progress"): how far it is complete, and no
    /// `session.ended` in `events`; nil for a finished capture.
    public var recording: Recording?

    public init(sessionId: String, startedAt: String, roles: [String: Role]? = nil,
                participants: [Participant], tracks: [Track], events: [ManifestEvent]) {
        self.sessionId = sessionId
        self.startedAt = startedAt
        self.roles = roles
        self.participants = participants
        self.tracks = tracks
        self.events = events
    }

    /// `"recording": {"completeToMs": N}`: every event before N is there, and none will be added before N.
    public struct Recording: Sendable, Hashable, Codable {
        public var completeToMs: Int
        public init(completeToMs: Int) { self.completeToMs = completeToMs }
    }

    /// A role's publishing rights, in the contract's form (`{"canPublish": ["audio", "video"]}`).
    public struct Role: Sendable, Hashable, Codable {
        public var canPublish: [String]
        public init(canPublish: [String]) { self.canPublish = canPublish }
    }

    public struct Track: Sendable, Hashable, Codable {
        public var id: String
        public var participantId: String
        public var kind: TrackKind
        public var source: TrackSource
        public var startOffsetMs: Int
        /// A video track's simulcast layers (in the contract's shape already); `nil` for audio.
        public var layers: [TrackLayer]?
        /// An audio track's file; `nil` for video.
        public var file: String?

        public init(id: String, participantId: String, kind: TrackKind, source: TrackSource, startOffsetMs: Int = 0,
                    layers: [TrackLayer]? = nil, file: String? = nil) {
            self.id = id
            self.participantId = participantId
            self.kind = kind
            self.source = source
            self.startOffsetMs = startOffsetMs
            self.layers = layers
            self.file = file
        }
    }

    /// The manifest as `session.json` bytes: sorted keys, indented, slashes as they are.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
