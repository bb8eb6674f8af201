import Testing
@testable import StageMixCapture

@Suite("Stage timeline: the contract's rules one by one")
struct StageTimelineTests {
    @Test func joinedPinnedSendAndReceiveIsOnStage() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 1000)
        let t = c.timeline(endingAt: 5000)
        #expect(t.onStage(at: 500) == [])
        #expect(t.onStage(at: 1000) == ["maya"])
        #expect(t.subscribed(at: 2000) == ["maya-cam": .flowing, "maya-mic": .flowing])
        #expect(t.segments.map(\.startMs) == [0, 1000])
        #expect(t.segments.last?.endMs == 5000)
    }

    @Test func signallingOnlyIsNotOnStageUntilModeChanges() {
        var c = TestCapture(); c.person("omar")
        c.at(0, .participantJoined(participantId: "omar", mode: .signallingOnly, role: nil))
        c.at(0, .pinned(participantId: "omar"))
        c.at(0, .trackPublished(trackId: "omar-mic"))
        c.at(3000, .modeChanged(participantId: "omar", mode: .sendAndReceive))
        c.at(6000, .modeChanged(participantId: "omar", mode: .signallingOnly))
        let t = c.timeline(endingAt: 9000)
        #expect(t.onStage(at: 1000) == [])
        #expect(t.onStage(at: 3000) == ["omar"])
        #expect(t.onStage(at: 6000) == [])
    }

    @Test func sendAndReceiveWithoutPinIsNotOnStage() {
        var c = TestCapture(); c.person("maya")
        c.at(0, .participantJoined(participantId: "maya", mode: .sendAndReceive, role: nil))
        c.at(0, .trackPublished(trackId: "maya-cam"))
        c.at(2000, .pinned(participantId: "maya"))
        c.at(4000, .unpinned(participantId: "maya"))
        let t = c.timeline(endingAt: 6000)
        #expect(t.onStage(at: 1000) == [])
        #expect(t.onStage(at: 2000) == ["maya"])
        #expect(t.onStage(at: 4000) == [])
    }

    @Test func leavingEndsTracksAndRejoiningStartsAfresh() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        c.at(2000, .participantLeft(participantId: "maya"))
        c.at(3000, .participantJoined(participantId: "maya", mode: .sendAndReceive, role: nil))
        c.at(5000, .pinned(participantId: "maya"))
        let t = c.timeline(endingAt: 8000)
        #expect(t.onStage(at: 2500) == [])
        // Rejoined but not yet pinned: the pin was lost on leaving.
        #expect(t.onStage(at: 4000) == [])
        // Pinned again, but the old tracks ended with the leave: on stage with no tile.
        #expect(t.onStage(at: 5000) == ["maya"])
        #expect(t.subscribed(at: 5000).isEmpty)
        #expect(t.segment(atMs: 5000)?.onStage.first?.hasTile == false)
    }

    @Test func roleLimitsWhatIsSubscribedAndRoleChangesApplyAtOnce() {
        var c = TestCapture()
        c.roles = ["host": Role(canPublish: [.audio, .video, .screen]), "speaker": Role(canPublish: [.audio, .video]),
                   "viewer": Role(canPublish: []), "listener": Role(canPublish: [.audio])]
        c.person("omar", screen: true)
        c.onStage("omar", at: 0, role: "viewer")
        c.at(0, .trackPublished(trackId: "omar-screen"))
        c.at(2000, .roleChanged(participantId: "omar", role: "host", forced: false))
        c.at(4000, .roleChanged(participantId: "omar", role: "speaker", forced: true))
        c.at(6000, .roleChanged(participantId: "omar", role: "listener", forced: true))
        let t = c.timeline(endingAt: 8000)
        #expect(t.onStage(at: 1000) == ["omar"])
        #expect(t.subscribed(at: 1000).isEmpty)
        #expect(Set(t.subscribed(at: 2000).keys) == ["omar-cam", "omar-mic", "omar-screen"])
        #expect(Set(t.subscribed(at: 4000).keys) == ["omar-cam", "omar-mic"])
        #expect(Set(t.subscribed(at: 6000).keys) == ["omar-mic"])
    }

    @Test func withoutRolesEverythingMayBePublished() {
        var c = TestCapture(); c.person("maya", screen: true); c.onStage("maya", at: 0, role: "anything")
        c.at(0, .trackPublished(trackId: "maya-screen"))
        #expect(c.timeline(endingAt: 1000).subscribed(at: 0).count == 3)
    }

    @Test func publishAndUnpublish() {
        var c = TestCapture(); c.person("maya")
        c.at(0, .participantJoined(participantId: "maya", mode: .sendAndReceive, role: nil))
        c.at(0, .pinned(participantId: "maya"))
        c.at(1000, .trackPublished(trackId: "maya-cam"))
        c.at(3000, .trackUnpublished(trackId: "maya-cam"))
        let t = c.timeline(endingAt: 5000)
        #expect(t.subscribed(at: 0).isEmpty)
        #expect(t.subscribed(at: 1000) == ["maya-cam": .flowing])
        #expect(t.subscribed(at: 3000).isEmpty)
    }

    @Test func muteKeepsTheSubscriptionWithoutMedia() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        c.at(1000, .trackMuted(trackId: "maya-cam"))
        c.at(1000, .trackMuted(trackId: "maya-mic"))
        c.at(2000, .trackUnmuted(trackId: "maya-cam"))
        let t = c.timeline(endingAt: 3000)
        #expect(t.subscribed(at: 1500) == ["maya-cam": .muted, "maya-mic": .muted])
        #expect(t.subscribed(at: 2500) == ["maya-cam": .flowing, "maya-mic": .muted])
    }

    @Test func pausedStreamHoldsForTheGracePeriodThenShowsPlaceholder() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        c.at(10_000, .streamState(trackId: "maya-cam", state: .paused))
        c.at(20_000, .streamState(trackId: "maya-cam", state: .active))
        let t = c.timeline(endingAt: 30_000)
        #expect(t.subscribed(at: 9_999)["maya-cam"] == .flowing)
        #expect(t.subscribed(at: 10_000)["maya-cam"] == .pausedHolding)
        #expect(t.subscribed(at: 12_999)["maya-cam"] == .pausedHolding)
        #expect(t.subscribed(at: 13_000)["maya-cam"] == .paused)
        #expect(t.subscribed(at: 20_000)["maya-cam"] == .flowing)
        #expect(t.segments.map(\.startMs) == [0, 10_000, 13_000, 20_000])

        let longer = c.timeline(endingAt: 30_000, graceMs: 5_000)
        #expect(longer.subscribed(at: 14_999)["maya-cam"] == .pausedHolding)
        #expect(longer.subscribed(at: 15_000)["maya-cam"] == .paused)
    }

    @Test func resumingWithinGraceNeverShowsPlaceholder() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        c.at(1000, .streamState(trackId: "maya-cam", state: .paused))
        c.at(2000, .streamState(trackId: "maya-cam", state: .active))
        let t = c.timeline(endingAt: 10_000)
        #expect(t.segments.map(\.startMs) == [0, 1000, 2000])
        #expect(!t.segments.contains { $0.onStage.contains { $0.tracks.contains { $0.flow == .paused } } })
    }

    @Test func subscriptionPermission() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        c.at(1000, .subscriptionPermission(trackId: "maya-cam", allowed: false))
        c.at(2000, .subscriptionPermission(trackId: "maya-cam", allowed: true))
        let t = c.timeline(endingAt: 3000)
        #expect(Set(t.subscribed(at: 1500).keys) == ["maya-mic"])
        #expect(Set(t.subscribed(at: 2500).keys) == ["maya-cam", "maya-mic"])
    }

    @Test func stageOrderFollowsArrival() {
        var c = TestCapture(); c.person("zed"); c.person("amy")
        c.onStage("zed", at: 0); c.onStage("amy", at: 1000)
        let t = c.timeline(endingAt: 2000)
        #expect(t.onStage(at: 1500) == ["zed", "amy"])
        #expect(t.segment(atMs: 1500)?.onStage.map(\.pinnedAtMs) == [0, 1000])
    }

    @Test func segmentsCoverTheSessionAndAdjacentOnesDiffer() {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        // A pub/sub message changes nothing: no new segment.
        c.at(500, .pubsub(PubSubMessage(topic: "chat", senderId: "maya")))
        c.at(1000, .trackMuted(trackId: "maya-cam"))
        c.at(1000, .trackUnmuted(trackId: "maya-cam"))
        let t = c.timeline(endingAt: 4000)
        #expect(t.segments.count == 1)
        #expect(t.segments[0].startMs == 0 && t.segments[0].endMs == 4000)
    }
}

@Suite("Stage invitations")
struct InvitationTests {
    func invite(_ c: inout TestCapture, _ ms: Int, to viewer: String) {
        c.at(ms, .pubsub(PubSubMessage(topic: "HOSTREQUESTED", senderId: "host",
                                       payload: ["receiverId": viewer, "senderId": "host", "senderName": "Maya"])))
    }
    func ack(_ c: inout TestCapture, _ ms: Int, from viewer: String, _ answer: String) {
        c.at(ms, .pubsub(PubSubMessage(topic: "ACK", senderId: viewer, message: answer, payload: ["receiverId": "host"])))
    }

    @Test func acceptedDeclinedExpired() {
        var c = TestCapture()
        invite(&c, 1000, to: "omar"); ack(&c, 4000, from: "omar", "ACCEPTED")
        invite(&c, 2000, to: "lena"); ack(&c, 5000, from: "lena", "DECLINED")
        invite(&c, 3000, to: "kai")
        let t = c.timeline(endingAt: 100_000)
        let byViewer = Dictionary(uniqueKeysWithValues: t.invitations.map { ($0.receiverId, $0) })
        #expect(byViewer["omar"]?.outcome == .accepted && byViewer["omar"]?.resolvedAtMs == 4000)
        #expect(byViewer["lena"]?.outcome == .declined && byViewer["lena"]?.resolvedAtMs == 5000)
        #expect(byViewer["kai"]?.outcome == .expired && byViewer["kai"]?.resolvedAtMs == 63_000)
        #expect(byViewer["omar"]?.senderName == "Maya")
    }

    @Test func answerAfterSixtySecondsIsTooLate() {
        var c = TestCapture()
        invite(&c, 0, to: "omar"); ack(&c, 61_000, from: "omar", "ACCEPTED")
        let t = c.timeline(endingAt: 70_000)
        #expect(t.invitations.count == 1)
        #expect(t.invitations[0].outcome == .expired)
        #expect(t.invitations[0].resolvedAtMs == 60_000)
        #expect(t.invitations[0].note?.contains("accepted") == true)
    }

    @Test func unansweredAtSessionEndExpires() {
        var c = TestCapture()
        invite(&c, 10_000, to: "omar")
        let t = c.timeline(endingAt: 20_000)
        #expect(t.invitations[0].outcome == .expired)
        #expect(t.invitations[0].resolvedAtMs == 20_000)
    }

    @Test func answerAtExactlySixtySecondsCounts() {
        var c = TestCapture()
        invite(&c, 0, to: "omar"); ack(&c, 60_000, from: "omar", "DECLINED")
        #expect(c.timeline(endingAt: 70_000).invitations[0].outcome == .declined)
    }
}
