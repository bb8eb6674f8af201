import Foundation
@testable import StageMixCapture
@testable import StageMixPlan

/// Builds small captures in code, so each test states only the events it is about.
struct TestCapture {
    var roles: [String: Role]? = nil
    var participants: [Participant] = []
    var tracks: [Track] = []
    var events: [SessionEvent] = []

    /// A participant with a three-layer camera (320x180, 640x360, 1280x720) and a microphone.
    mutating func person(_ id: String, screen: Bool = false) {
        participants.append(Participant(id: id, name: id.capitalized))
        tracks.append(Track(id: "\(id)-cam", participantId: id, kind: .video, source: .camera, layers: [
            TrackLayer(quality: .low, width: 320, height: 180, file: "media/\(id)-cam-low.webm"),
            TrackLayer(quality: .medium, width: 640, height: 360, file: "media/\(id)-cam-medium.webm"),
            TrackLayer(quality: .high, width: 1280, height: 720, file: "media/\(id)-cam-high.webm"),
        ]))
        tracks.append(Track(id: "\(id)-mic", participantId: id, kind: .audio, source: .microphone,
                            file: "media/\(id)-mic.ogg"))
        if screen {
            tracks.append(Track(id: "\(id)-screen", participantId: id, kind: .video, source: .screenShare, layers: [
                TrackLayer(quality: .high, width: 1920, height: 1080, file: "media/\(id)-screen.webm"),
            ]))
        }
    }

    mutating func at(_ ms: Int, _ action: SessionEvent.Action) { events.append(SessionEvent(atMs: ms, action)) }

    /// Joins in `SEND_AND_RECV`, pins, and publishes camera and microphone at `ms`.
    mutating func onStage(_ id: String, at ms: Int, role: String? = nil) {
        at(ms, .participantJoined(participantId: id, mode: .sendAndReceive, role: role))
        at(ms, .pinned(participantId: id))
        at(ms, .trackPublished(trackId: "\(id)-cam"))
        at(ms, .trackPublished(trackId: "\(id)-mic"))
    }

    func capture(endingAt endMs: Int) -> Capture {
        Capture(directory: URL(fileURLWithPath: "/tmp/test-capture"), sessionId: "test",
                startedAt: Date(timeIntervalSince1970: 1_795_000_000), roles: roles,
                participants: participants, tracks: tracks,
                events: events.sorted { $0.atMs < $1.atMs } + [SessionEvent(atMs: endMs, .sessionEnded)])
    }

    func timeline(endingAt endMs: Int, graceMs: Int = StageTimeline.defaultPauseGraceMs) -> StageTimeline {
        try! StageTimeline(capture: capture(endingAt: endMs), pauseGraceMs: graceMs)
    }
}

extension StageTimeline {
    /// Participant ids on stage at `ms`.
    func onStage(at ms: Int) -> [String] { segment(atMs: ms)?.onStage.map(\.participantId) ?? [] }
    /// Subscribed track ids at `ms`, with their flow.
    func subscribed(at ms: Int) -> [String: MediaFlow] {
        var result: [String: MediaFlow] = [:]
        for p in segment(atMs: ms)?.onStage ?? [] { for t in p.tracks { result[t.trackId] = t.flow } }
        return result
    }
}
