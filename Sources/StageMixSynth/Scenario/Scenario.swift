import Foundation
public import StageMixCapture

/// A description of a session to synthesize: who takes part, what they publish, what happens
/// when. The events are the capture contract's own events; the generator adds `session.ended`
/// at `durationMs` and writes media for every published interval.
public struct Scenario: Sendable, Hashable, Codable {
    public var sessionId: String
    /// The session clock's zero, RFC 3339 in UTC.
    public var startedAt: String
    /// Where `session.ended` lands; events after it are dropped.
    public var durationMs: Int
    /// Video frame rate of every camera and screen share.
    public var frameRate: Int
    /// Frames between keyframes (a keyframe is also forced when a paused stream resumes).
    public var keyframeInterval: Int
    /// Copied to session.json as is; nil leaves `roles` out (everyone may publish everything).
    public var roles: [String: CaptureManifest.Role]?
    public var participants: [ScenarioParticipant]
    /// Contract events in order, without `session.ended`.
    public var events: [ManifestEvent]

    public init(sessionId: String, startedAt: String = "2026-11-20T18:00:00.000Z", durationMs: Int,
                frameRate: Int = 30, keyframeInterval: Int = 30, roles: [String: CaptureManifest.Role]? = nil,
                participants: [ScenarioParticipant], events: [ManifestEvent]) {
        self.sessionId = sessionId
        self.startedAt = startedAt
        self.durationMs = durationMs
        self.frameRate = frameRate
        self.keyframeInterval = keyframeInterval
        self.roles = roles
        self.participants = participants
        self.events = events
    }

    enum CodingKeys: String, CodingKey {
        case sessionId, startedAt, durationMs, frameRate, keyframeInterval, roles, participants, events
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sessionId = try c.decode(String.self, forKey: .sessionId)
        startedAt = try c.decodeIfPresent(String.self, forKey: .startedAt) ?? "2026-11-20T18:00:00.000Z"
        durationMs = try c.decode(Int.self, forKey: .durationMs)
        frameRate = try c.decodeIfPresent(Int.self, forKey: .frameRate) ?? 30
        keyframeInterval = try c.decodeIfPresent(Int.self, forKey: .keyframeInterval) ?? frameRate
        roles = try c.decodeIfPresent([String: CaptureManifest.Role].self, forKey: .roles)
        participants = try c.decode([ScenarioParticipant].self, forKey: .participants)
        events = try c.decodeIfPresent([ManifestEvent].self, forKey: .events) ?? []
    }

    /// The same session cut or stretched to `durationMs`: events after the new end are dropped.
    public func withDuration(_ durationMs: Int) -> Scenario {
        var copy = self
        copy.durationMs = durationMs
        copy.events = events.filter { $0.atMs <= durationMs }
        return copy
    }

    /// Every track of every participant, with its owner.
    public var tracks: [(participant: ScenarioParticipant, track: ScenarioTrack)] {
        participants.flatMap { p in p.tracks.map { (p, $0) } }
    }
}

extension CaptureManifest.Role {
    /// host: everything; speaker: camera and microphone; viewer: nothing (as in the contract's example).
    public static let stageRoles: [String: CaptureManifest.Role] = [
        "host": CaptureManifest.Role(canPublish: ["audio", "video", "screen"]),
        "speaker": CaptureManifest.Role(canPublish: ["audio", "video"]),
        "viewer": CaptureManifest.Role(canPublish: []),
    ]
}
