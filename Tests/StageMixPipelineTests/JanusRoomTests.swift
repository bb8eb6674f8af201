import Foundation
import Testing
@testable import StageMixImport
import StageMixCapture
import StageMixTestSupport

/// Janus's events as a real Janus 1.1.2 posted them (Tests/Fixtures/janus: a VideoRoom of three
/// headless Chromium publishers made by scripts/janus-record, trimmed to the kinds the importer
/// reads plus a few others), and the room they make: publishers, publishes, the stage.
@Suite("Janus: the room from its events")
struct JanusRoomTests {
    static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/janus")
    static let alice = "1794472524448080", bruno = "6025506771945826", chen = "7336225071760845"

    static func log() throws -> JanusEventLog { try JanusEventLog.read(fixtures.appendingPathComponent("events-vp8.jsonl")) }

    /// The harness's own clock of what each page did, µs.
    static func observed(_ key: String, _ display: String) throws -> [Int64] {
        let scenario = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("scenario-vp8.json"))) as? [String: Any]
        let publishers = scenario?["publishers"] as? [[String: Any]] ?? []
        let observed = publishers.first { $0["display"] as? String == display }?["observed_us"] as? [String: Any]
        if let many = observed?[key] as? [NSNumber] { return many.map(\.int64Value) }
        return (observed?[key] as? NSNumber).map { [$0.int64Value] } ?? []
    }

    @Test func publishersAndTheirPublishesAreReadAsJanusSentThem() throws {
        let log = try Self.log()
        #expect(JanusRoomHistory.rooms(in: log) == ["1234"])
        let room = JanusRoomHistory(room: "1234", log: log)
        #expect(room.order == [Self.alice, Self.bruno, Self.chen])
        #expect(room.publishers[Self.bruno]?.display == "Bruno Díaz")
        #expect(room.publishers[Self.chen]?.display == "陈静 Chen Jing")
        // Bruno unpublished (Janus sent two `unpublished` for it) and published again: two publishes, not three.
        let bruno = try #require(room.publishers[Self.bruno])
        #expect(bruno.publishes.count == 2)
        let unpublishSent = try #require(try Self.observed("unpublish_sent", "Bruno Díaz").first)
        let firstEnd = try #require(bruno.publishes[0].endUs)
        // The page logs its own step when it returns, a few ms either side of what Janus stamped.
        #expect(abs(firstEnd - unpublishSent) < 200_000, "the first unpublished ends it, the second changes nothing")
        // Chen left with a `leave` request: only `leaving`, no `unpublished`; that ends the publish and the stay.
        let chen = try #require(room.publishers[Self.chen])
        let leaveSent = try #require(try Self.observed("leave_sent", "陈静 Chen Jing").first)
        #expect(chen.publishes.count == 1 && chen.leftUs != nil && chen.publishes[0].endUs == chen.leftUs)
        #expect(abs(chen.leftUs! - leaveSent) < 200_000)
        // Each publish starts when WebRTC was up, to a few milliseconds.
        for (id, display) in [(Self.alice, "Alice Martin"), (Self.bruno, "Bruno Díaz"), (Self.chen, "陈静 Chen Jing")] {
            let up = try Self.observed("webrtc_up", display)
            let starts = room.publishers[id]?.publishes.map(\.startUs) ?? []
            #expect(starts.count == up.count)
            for (start, browser) in zip(starts, up) { #expect(abs(start - browser) < 300_000, "\(display): \(start) against \(browser)") }
        }
        // Media began flowing in each publish (`receiving` true), audio and video.
        #expect(bruno.publishes.allSatisfy { Set($0.receiving.filter(\.receiving).map(\.kind)) == ["audio", "video"] })
    }

    @Test func aRetransmittedPostAndLinesOfOtherThingsChangeNothing() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("events-vp8.jsonl"))
        let lines = data.split(separator: UInt8(ascii: "\n"))
        // Every line twice (the handler retries a POST it saw fail), a line that is no JSON, an array of non-events.
        var doubled = Data()
        for line in lines { doubled += line + [0x0A] + line + [0x0A] }
        doubled += Data("not json\n[1, 2, {\"x\": 1}]\n\n".utf8)
        let log = JanusEventLog.parse(doubled)
        let once = try Self.log()
        #expect(log.events.map(\.text) == once.events.map(\.text))
        #expect(log.unreadableLines == [lines.count * 2 + 1])
    }

    /// What the recordings of that room would be: each publish's audio and video, their first samples a
    /// few tens of ms after `published`, lasting to its end.
    static func media(_ room: JanusRoomHistory) -> [JanusTrackMedia] {
        var media: [JanusTrackMedia] = []
        for id in room.order {
            for publish in room.publishers[id]!.publishes {
                for (kind, lag) in [(TrackKind.audio, Int64(10_000)), (.video, 70_000)] {
                    let first = publish.startUs + lag
                    media.append(JanusTrackMedia(recording: "videoroom-1234-user-\(id)-\(publish.startUs - 60_000)-\(kind.rawValue).mjr", publisherId: id,
                                                 createdUs: publish.startUs - 60_000, kind: kind, file: "media/\(id)-\(publish.startUs)-\(kind.rawValue).webm",
                                                 firstSampleUs: first, durationMs: Int((publish.endUs! - 40_000 - first) / 1000),
                                                 width: kind == .video ? 320 : nil, height: kind == .video ? 240 : nil))
                }
            }
        }
        return media
    }

    @Test func theRoomIsACaptureWithEveryPublisherOnStageExactlyWhilePublishing() throws {
        let room = JanusRoomHistory(room: "1234", log: try Self.log())
        let (manifest, warnings) = JanusRoomCapture(sessionId: "room-1234", history: room, media: Self.media(room), stage: nil).manifest()
        #expect(warnings.isEmpty, "\(warnings)")
        // An ordinary capture, checked by every rule of the contract.
        let capture = try Capture(manifest: manifest, directory: URL(fileURLWithPath: "/nonexistent"))
        #expect(capture.participants.map(\.name) == ["Alice Martin", "Bruno Díaz", "陈静 Chen Jing"])
        #expect(manifest.tracks.map(\.id).filter { $0.hasPrefix(Self.bruno) }.sorted()
                == ["\(Self.bruno)-audio-1", "\(Self.bruno)-audio-2", "\(Self.bruno)-video-1", "\(Self.bruno)-video-2"])
        let zero = try #require(room.firstEventUs)
        func at(_ us: Int64) -> Int { Int((us - zero) / 1000) }
        let bruno = room.publishers[Self.bruno]!
        let events = manifest.events
        // On stage: SEND_AND_RECV from each publish's start to its end, pinned once, tracks inside.
        let modes = events.filter { $0.participantId == Self.bruno && $0.type == "participant.mode_changed" }.map { "\($0.atMs) \($0.mode!)" }
        #expect(modes == bruno.publishes.flatMap { ["\(at($0.startUs)) SEND_AND_RECV", "\(at($0.endUs!)) SIGNALLING_ONLY"] })
        #expect(events.filter { $0.type == "participant.pinned" }.map(\.participantId) == [Self.alice, Self.bruno, Self.chen])
        #expect(events.last?.type == "session.ended")
        // A track is placed by its own first sample: audio and video of one publish apart by their files' real start.
        let audio = try #require(manifest.tracks.first { $0.id == "\(Self.bruno)-audio-1" })
        let video = try #require(manifest.tracks.first { $0.id == "\(Self.bruno)-video-1" })
        #expect(video.startOffsetMs - audio.startOffsetMs == 60)
    }

    @Test func stageNamesWhoIsPinned() throws {
        let room = JanusRoomHistory(room: "1234", log: try Self.log())
        let (manifest, warnings) = JanusRoomCapture(sessionId: "room-1234", history: room, media: Self.media(room),
                                                    stage: ["Bruno Díaz", Self.chen, "Nobody"]).manifest()
        #expect(manifest.events.filter { $0.type == "participant.pinned" }.map(\.participantId) == [Self.bruno, Self.chen])
        #expect(warnings == ["--stage Nobody: no publisher of room 1234 has that display name or id"])
    }
}
