import Testing
@testable import StageMixQueue

/// When a Janus room ends, from its events alone: no database.
@Suite("Janus room state")
struct JanusRoomStateTests {
    @Test func aRoomThatHadMediaIsIdleOnceItsLastPublisherStops() {
        var room = JanusRoomState()
        room.apply(.joined, publisher: "1", now: 0)
        room.apply(.published, publisher: "1", now: 1)
        room.apply(.published, publisher: "2", now: 2)
        room.apply(.unpublished, publisher: "1", now: 10)
        #expect(room.idleSince == nil && !room.hasEnded(now: 1000, idleSeconds: 60))
        // The second publisher's PeerConnection closes: nobody publishes, though both are still in the room.
        room.apply(.hangup, publisher: "2", now: 20)
        #expect(room.idleSince == 20 && room.present == ["1", "2"])
        #expect(!room.hasEnded(now: 79, idleSeconds: 60) && room.hasEnded(now: 80, idleSeconds: 60))
        // Janus's doubled `unpublished` and a later `leaving` do not move the idle time on.
        room.apply(.unpublished, publisher: "2", now: 30)
        room.apply(.left, publisher: "1", now: 40)
        #expect(room.idleSince == 20)
        // A publish before the time is up keeps the room open.
        room.apply(.published, publisher: "2", now: 50)
        #expect(room.idleSince == nil && !room.hasEnded(now: 1000, idleSeconds: 60))
    }

    @Test func aRoomWithoutMediaStaysOpenWhileSomeoneIsInIt() {
        var room = JanusRoomState()
        room.apply(.joined, publisher: "1", now: 0)
        room.apply(.other, publisher: "1", now: 5)
        #expect(room.idleSince == nil && !room.hadMedia)
        room.apply(.left, publisher: "1", now: 100)
        #expect(room.idleSince == 100 && room.hasEnded(now: 160, idleSeconds: 60))
    }

    @Test func aDestroyedRoomEndsAtOnce() {
        var room = JanusRoomState()
        room.apply(.published, publisher: "1", now: 0)
        room.apply(.destroyed, publisher: nil, now: 5)
        room.apply(.destroyed, publisher: nil, now: 6)
        #expect(room.destroyedAt == 5 && room.hasEnded(now: 5, idleSeconds: 3600))
    }

    @Test func publisherSetsSurviveTheirColumn() {
        #expect(JanusRoomState.ids(JanusRoomState.column(["12", "a,b", "50%"])) == ["12", "a,b", "50%"])
        #expect(JanusRoomState.ids(JanusRoomState.column([])) == [])
    }
}
