import StageMixJSON
import Testing

/// One broken rule of the capture contract, and the JSON paths the reader must report for it.
struct BrokenRule: Sendable, CustomTestStringConvertible {
    var name: String
    var paths: [String]
    var breakIt: @Sendable (inout CaptureFixture) -> Void
    var testDescription: String { name }

    init(_ name: String, _ paths: String..., breakIt: @escaping @Sendable (inout CaptureFixture) -> Void) {
        self.name = name; self.paths = paths; self.breakIt = breakIt
    }
}

@Suite struct CaptureValidationTests {
    static let rules: [BrokenRule] = [
        // Document
        BrokenRule("wrong format", "$.format") { $0.document["format"] = "stagemix.capture/2" },
        BrokenRule("missing format", "$.format") { $0.document["format"] = nil },
        BrokenRule("sessionId not a string", "$.sessionId") { $0.document["sessionId"] = 42 },
        BrokenRule("startedAt not UTC", "$.startedAt") { $0.document["startedAt"] = "2026-11-20T18:00:00+01:00" },
        BrokenRule("startedAt impossible date", "$.startedAt") { $0.document["startedAt"] = "2026-02-30T18:00:00Z" },
        BrokenRule("roles not an object", "$.roles") { $0.document["roles"] = ["host"] },
        BrokenRule("unknown publish right", "$.roles.host.canPublish[1]") {
            $0.document["roles"] = ["host": ["canPublish": ["audio", "mic"]], "speaker": ["canPublish": ["audio"]], "viewer": ["canPublish": []]]
        },
        BrokenRule("role without canPublish", "$.roles.viewer.canPublish") {
            $0.document["roles"] = ["host": ["canPublish": ["audio", "video"]], "speaker": ["canPublish": ["audio"]], "viewer": [:]]
        },
        BrokenRule("repeated publish right", "$.roles.speaker.canPublish[1]") {
            $0.document["roles"] = ["host": ["canPublish": ["audio", "video"]], "speaker": ["canPublish": ["audio", "audio"]], "viewer": ["canPublish": []]]
        },
        // Participants
        BrokenRule("participants missing", "$.participants") { $0.document["participants"] = nil },
        BrokenRule("duplicate participant id", "$.participants[2].id") { $0.participants.append(["id": "p-maya", "name": "Maya again"]) },
        BrokenRule("participant without name", "$.participants[1].name") { $0.participants[1]["name"] = nil },
        BrokenRule("participant not an object", "$.participants[2]") { $0.document["participants"] = [$0.participants[0], $0.participants[1], "p-x"] as [Any] },
        // Tracks
        BrokenRule("tracks not an array", "$.tracks") { $0.document["tracks"] = ["TR_maya_cam": [:]] },
        BrokenRule("duplicate track id", "$.tracks[4].id") { $0.tracks.append($0.tracks[1]) },
        BrokenRule("track of an unknown participant", "$.tracks[3].participantId") { $0.tracks[3]["participantId"] = "p-nobody" },
        BrokenRule("unknown kind", "$.tracks[1].kind") { $0.tracks[1]["kind"] = "data" },
        BrokenRule("unknown source", "$.tracks[1].source") { $0.tracks[1]["source"] = "telephone" },
        BrokenRule("audio source on a video track", "$.tracks[0].source") { $0.tracks[0]["source"] = "screen_share_audio" },
        BrokenRule("video source on an audio track", "$.tracks[1].source") { $0.tracks[1]["source"] = "screen_share" },
        BrokenRule("negative startOffsetMs", "$.tracks[2].startOffsetMs") { $0.tracks[2]["startOffsetMs"] = -5 },
        BrokenRule("fractional startOffsetMs", "$.tracks[2].startOffsetMs") { $0.tracks[2]["startOffsetMs"] = 1.5 },
        BrokenRule("video without layers", "$.tracks[0].layers") { $0.tracks[0]["layers"] = nil },
        BrokenRule("video with empty layers", "$.tracks[0].layers") { $0.setLayers(0, []) },
        BrokenRule("video with a file", "$.tracks[0].file") { $0.tracks[0]["file"] = "media/cam.webm" },
        BrokenRule("duplicate layer quality", "$.tracks[0].layers[2].quality") {
            var layers = $0.layers(0); layers[2]["quality"] = "high"; $0.setLayers(0, layers)
        },
        BrokenRule("unknown layer quality", "$.tracks[0].layers[0].quality") {
            var layers = $0.layers(0); layers[0]["quality"] = "ultra"; $0.setLayers(0, layers)
        },
        BrokenRule("zero width", "$.tracks[0].layers[0].width") {
            var layers = $0.layers(0); layers[0]["width"] = 0; $0.setLayers(0, layers)
        },
        BrokenRule("height as a string", "$.tracks[0].layers[1].height") {
            var layers = $0.layers(0); layers[1]["height"] = "180"; $0.setLayers(0, layers)
        },
        BrokenRule("layer without file", "$.tracks[2].layers[0].file") {
            var layers = $0.layers(2); layers[0]["file"] = nil; $0.setLayers(2, layers)
        },
        BrokenRule("negative layer startOffsetMs", "$.tracks[2].layers[0].startOffsetMs") {
            var layers = $0.layers(2); layers[0]["startOffsetMs"] = -1; $0.setLayers(2, layers)
        },
        BrokenRule("audio without file", "$.tracks[1].file") { $0.tracks[1]["file"] = nil },
        BrokenRule("audio with an empty file", "$.tracks[1].file") { $0.tracks[1]["file"] = "" },
        BrokenRule("audio with layers", "$.tracks[1].layers") { $0.tracks[1]["layers"] = [] },
        BrokenRule("absolute layer file", "$.tracks[0].layers[0].file") {
            var layers = $0.layers(0); layers[0]["file"] = "/etc/passwd"; $0.setLayers(0, layers)
        },
        BrokenRule("layer file climbing out", "$.tracks[0].layers[1].file") {
            var layers = $0.layers(0); layers[1]["file"] = "../x"; $0.setLayers(0, layers)
        },
        // Event fields
        BrokenRule("events missing", "$.events") { $0.document["events"] = nil },
        BrokenRule("event not an object", "$.events[1]") { $0.document["events"] = [$0.events[0], "pinned"] + $0.events.dropFirst(2).map { $0 as Any } },
        BrokenRule("negative atMs", "$.events[1].atMs") { $0.events[1]["atMs"] = -1 },
        BrokenRule("atMs as a string", "$.events[1].atMs") { $0.events[1]["atMs"] = "0" },
        BrokenRule("events out of order", "$.events[12].atMs") { $0.events[12]["atMs"] = 100 },
        BrokenRule("unknown event type", "$.events[18].type") { $0.events[18]["type"] = "participant.waved" },
        BrokenRule("event without type", "$.events[18].type") { $0.events[18]["type"] = nil },
        BrokenRule("joined without mode", "$.events[0].mode") { $0.events[0]["mode"] = nil },
        BrokenRule("unknown mode", "$.events[8].mode") { $0.events[8]["mode"] = "LURKER" },
        BrokenRule("participantId not a string", "$.events[1].participantId") { $0.events[1]["participantId"] = 7 },
        BrokenRule("joined with an undefined role", "$.events[0].role") { $0.events[0]["role"] = "admin" },
        BrokenRule("joined without a role though roles are given", "$.events[4].role") { $0.events[4]["role"] = nil },
        BrokenRule("role_changed without forced", "$.events[7].forced") { $0.events[7]["forced"] = nil },
        BrokenRule("role_changed with forced as a string", "$.events[7].forced") { $0.events[7]["forced"] = "no" },
        BrokenRule("role_changed to an undefined role", "$.events[7].role") { $0.events[7]["role"] = "moderator" },
        BrokenRule("stream_state with an unknown state", "$.events[14].state") { $0.events[14]["state"] = "stopped" },
        BrokenRule("subscription_permission without allowed", "$.events[16].allowed") { $0.events[16]["allowed"] = nil },
        BrokenRule("subscription_permission with allowed as a string", "$.events[16].allowed") { $0.events[16]["allowed"] = "false" },
        BrokenRule("track event without trackId", "$.events[12].trackId") { $0.events[12]["trackId"] = nil },
        BrokenRule("pubsub without topic", "$.events[5].topic") { $0.events[5]["topic"] = nil },
        BrokenRule("pubsub without senderId", "$.events[5].senderId") { $0.events[5]["senderId"] = nil },
        BrokenRule("pubsub message not a string", "$.events[6].message") { $0.events[6]["message"] = ["ACCEPTED"] },
        BrokenRule("pubsub payload not an object", "$.events[5].payload") { $0.events[5]["payload"] = ["p-omar"] },
        // References
        BrokenRule("event about an unknown participant", "$.events[1].participantId") { $0.events[1]["participantId"] = "p-ghost" },
        BrokenRule("event about an unknown track", "$.events[2].trackId") { $0.events[2]["trackId"] = "TR_ghost" },
        BrokenRule("pubsub from an unknown participant", "$.events[5].senderId") { $0.events[5]["senderId"] = "p-ghost" },
        // Session state
        BrokenRule("pinned before joined", "$.events[1].participantId") {
            $0.events.insert(["atMs": 0, "type": "participant.pinned", "participantId": "p-omar"], at: 1)
        },
        BrokenRule("mode changed after leaving", "$.events[20].participantId") {
            $0.events.insert(["atMs": 16000, "type": "participant.mode_changed", "participantId": "p-omar", "mode": "SEND_AND_RECV"], at: 20)
        },
        BrokenRule("joined twice", "$.events[1].participantId") {
            $0.events.insert(["atMs": 0, "type": "participant.joined", "participantId": "p-maya", "mode": "SEND_AND_RECV", "role": "host"], at: 1)
        },
        BrokenRule("track published before its participant joined", "$.events[1].trackId") {
            $0.events.insert(["atMs": 0, "type": "track.published", "trackId": "TR_omar_mic"], at: 1)
        },
        BrokenRule("track muted after its participant left", "$.events[20].trackId") {
            $0.events.insert(["atMs": 16000, "type": "track.muted", "trackId": "TR_omar_mic"], at: 20)
        },
        BrokenRule("track published twice", "$.events[4].trackId") {
            $0.events.insert(["atMs": 0, "type": "track.published", "trackId": "TR_maya_cam"], at: 4)
        },
        BrokenRule("unpublished before published", "$.events[2].trackId") {
            $0.events.insert(["atMs": 0, "type": "track.unpublished", "trackId": "TR_maya_cam"], at: 2)
        },
        BrokenRule("muted after unpublished", "$.events[18].trackId") {
            $0.events.insert(["atMs": 10000, "type": "track.muted", "trackId": "TR_omar_cam"], at: 18)
        },
        BrokenRule("old track id after rejoining", "$.events[21].trackId") {
            $0.events.insert(["atMs": 16000, "type": "participant.joined", "participantId": "p-omar", "mode": "SEND_AND_RECV", "role": "speaker"], at: 20)
            $0.events.insert(["atMs": 16000, "type": "track.published", "trackId": "TR_omar_mic"], at: 21)
        },
        // session.ended
        BrokenRule("no session.ended", "$.events") { $0.events.removeLast() },
        BrokenRule("no events at all", "$.events") { $0.events = [] },
        BrokenRule("session.ended not last", "$.events[20].type") {
            $0.events.append(["atMs": 21000, "type": "participant.unpinned", "participantId": "p-maya"])
        },
        BrokenRule("session.ended twice", "$.events[21].type") {
            $0.events.insert(["atMs": 19000, "type": "session.ended"], at: 20)
        },
    ]

    @Test(arguments: rules)
    func eachBrokenRuleIsReportedAtItsPath(_ rule: BrokenRule) {
        var fixture = CaptureFixture.valid
        rule.breakIt(&fixture)
        let problems = fixture.problems()
        #expect(problems.map(\.path) == rule.paths, "\(problems.map(\.description))")
        #expect(problems.allSatisfy { !$0.expected.isEmpty && !$0.found.isEmpty })
    }

    @Test func theFixtureItselfIsValid() {
        #expect(CaptureFixture.valid.problems().isEmpty)
    }

    @Test func problemsSayWhatWasExpectedAndFound() {
        var fixture = CaptureFixture.valid
        fixture.events.insert(["atMs": 0, "type": "participant.pinned", "participantId": "p-omar"], at: 1)
        fixture.events[13]["atMs"] = 100
        fixture.events[21]["type"] = "session.over"
        let problems = fixture.problems()
        #expect(problems.map(\.description) == [
            "session.json: $.events[21].type: expected one of \"participant.joined\", \"participant.left\", \"participant.mode_changed\", "
                + "\"participant.pinned\", \"participant.unpinned\", \"participant.role_changed\", \"track.published\", "
                + "\"track.unpublished\", \"track.muted\", \"track.unmuted\", \"track.stream_state\", "
                + "\"track.subscription_permission\", \"pubsub.message\", \"session.ended\", found the string \"session.over\"",
            "session.json: $.events[13].atMs: expected at least 3500, the atMs of events[12] (events are ordered by atMs), found 100",
            "session.json: $.events: expected exactly one \"session.ended\" event, as the last event, found no \"session.ended\" among 22 events",
            "session.json: $.events[1].participantId: expected a participant who is in the session (joined and not left), found \"p-omar\", who has not joined",
        ])
    }
}
