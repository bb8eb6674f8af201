import StageMixJSON
import Foundation
@testable import StageMixCapture

/// A valid `session.json` as a mutable dictionary, for tests that break one rule at a time.
struct CaptureFixture {
    var document: [String: Any]

    var events: [[String: Any]] {
        get { document["events"] as! [[String: Any]] }
        set { document["events"] = newValue }
    }
    var tracks: [[String: Any]] {
        get { document["tracks"] as! [[String: Any]] }
        set { document["tracks"] = newValue }
    }
    var participants: [[String: Any]] {
        get { document["participants"] as! [[String: Any]] }
        set { document["participants"] = newValue }
    }
    /// `tracks[track].layers`.
    func layers(_ track: Int) -> [[String: Any]] { tracks[track]["layers"] as! [[String: Any]] }
    mutating func setLayers(_ track: Int, _ layers: [[String: Any]]) { tracks[track]["layers"] = layers }

    var data: Data { try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) }

    /// A directory that does not exist, so no media path resolves; path checks stay lexical.
    static let nowhere = URL(fileURLWithPath: "/nonexistent/stagemix-capture-fixture")

    func parse(directory: URL = CaptureFixture.nowhere) throws(CaptureError) -> Capture {
        try CaptureReader.parse(data, directory: directory)
    }

    /// The problems `parse` reports; none when it succeeds.
    func problems(directory: URL = CaptureFixture.nowhere) -> [JSONProblem] {
        do { _ = try parse(directory: directory); return [] } catch { return error.problems }
    }

    /// Maya hosts from 0 s; Omar joins as a viewer, is invited on stage, publishes, and leaves at 15 s.
    static var valid: CaptureFixture {
        CaptureFixture(document: [
            "format": "stagemix.capture/1",
            "sessionId": "ls-2026-11-20-panel",
            "startedAt": "2026-11-20T18:00:00.000Z",
            "futureField": ["ignored": true],
            "roles": [
                "host": ["canPublish": ["audio", "video", "screen"]],
                "speaker": ["canPublish": ["audio", "video"]],
                "viewer": ["canPublish": [String]()],
            ],
            "participants": [
                ["id": "p-maya", "name": "Maya"],
                ["id": "p-omar", "name": "Omar"],
            ],
            "tracks": [
                ["id": "TR_maya_cam", "participantId": "p-maya", "kind": "video", "source": "camera", "startOffsetMs": 0,
                 "layers": [
                    ["quality": "high", "width": 1280, "height": 720, "file": "media/maya-cam-high.webm"],
                    ["quality": "low", "width": 320, "height": 180, "file": "media/maya-cam-low.webm"],
                    ["quality": "medium", "width": 640, "height": 360, "file": "media/maya-cam-medium.webm"],
                 ]],
                ["id": "TR_maya_mic", "participantId": "p-maya", "kind": "audio", "source": "microphone",
                 "startOffsetMs": 0, "file": "media/maya-mic.ogg"],
                ["id": "TR_omar_cam", "participantId": "p-omar", "kind": "video", "source": "camera", "startOffsetMs": 1500,
                 "layers": [["quality": "low", "width": 320, "height": 180, "file": "media/omar-cam-low.webm", "startOffsetMs": 1600]]],
                ["id": "TR_omar_mic", "participantId": "p-omar", "kind": "audio", "source": "microphone",
                 "file": "./media/omar-mic.ogg"],
            ],
            "events": [
                ["atMs": 0, "type": "participant.joined", "participantId": "p-maya", "mode": "SEND_AND_RECV", "role": "host"],
                ["atMs": 0, "type": "participant.pinned", "participantId": "p-maya"],
                ["atMs": 0, "type": "track.published", "trackId": "TR_maya_cam"],
                ["atMs": 0, "type": "track.published", "trackId": "TR_maya_mic"],
                ["atMs": 1000, "type": "participant.joined", "participantId": "p-omar", "mode": "SIGNALLING_ONLY", "role": "viewer"],
                ["atMs": 2000, "type": "pubsub.message", "topic": "HOSTREQUESTED", "senderId": "p-maya",
                 "payload": ["receiverId": "p-omar", "senderId": "p-maya", "senderName": "Maya", "attempt": 1, "urgent": true]],
                ["atMs": 3000, "type": "pubsub.message", "topic": "ACK", "senderId": "p-omar", "message": "ACCEPTED",
                 "payload": ["receiverId": "p-maya"]],
                ["atMs": 3000, "type": "participant.role_changed", "participantId": "p-omar", "role": "speaker", "forced": false],
                ["atMs": 3000, "type": "participant.mode_changed", "participantId": "p-omar", "mode": "SEND_AND_RECV"],
                ["atMs": 3000, "type": "participant.pinned", "participantId": "p-omar"],
                ["atMs": 3500, "type": "track.published", "trackId": "TR_omar_cam"],
                ["atMs": 3500, "type": "track.published", "trackId": "TR_omar_mic"],
                ["atMs": 5000, "type": "track.muted", "trackId": "TR_omar_mic"],
                ["atMs": 6000, "type": "track.unmuted", "trackId": "TR_omar_mic"],
                ["atMs": 7000, "type": "track.stream_state", "trackId": "TR_omar_cam", "state": "paused"],
                ["atMs": 8000, "type": "track.stream_state", "trackId": "TR_omar_cam", "state": "active"],
                ["atMs": 9000, "type": "track.subscription_permission", "trackId": "TR_omar_cam", "allowed": false],
                ["atMs": 10000, "type": "track.unpublished", "trackId": "TR_omar_cam"],
                ["atMs": 12000, "type": "participant.unpinned", "participantId": "p-omar"],
                ["atMs": 15000, "type": "participant.left", "participantId": "p-omar"],
                ["atMs": 20000, "type": "session.ended"],
            ],
        ])
    }
}
