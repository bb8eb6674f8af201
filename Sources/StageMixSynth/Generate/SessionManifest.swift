import StageMixCapture

/// The session.json a scenario implies, in the contract's JSON shape (`stagemix.capture/1`).
struct SessionManifest: Encodable {
    var format = CaptureReader.formatIdentifier
    var sessionId: String
    var startedAt: String
    var roles: [String: ScenarioRole]?
    var participants: [Participant]
    var tracks: [Track]
    var events: [ScenarioEvent]

    struct Participant: Encodable {
        var id: String
        var name: String
    }

    struct Track: Encodable {
        var id: String
        var participantId: String
        var kind: TrackKind
        var source: TrackSource
        var startOffsetMs: Int
        var layers: [Layer]?
        var file: String?
    }

    struct Layer: Encodable {
        var quality: LayerQuality
        var width: Int
        var height: Int
        var file: String
    }
}
