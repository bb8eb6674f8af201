import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Janus's event handler as a client of the real `stagemix serve`: what it posts is kept once (single
/// events, arrays, gzip, retransmissions), credentials are checked, events outlive a restart, and each
/// room that ends (destroyed, or idle) is handled exactly once: imported (by a stand-in for the
/// importer, handed the room's events) and composed with the usual webhooks, or, without media or
/// recordings, left without a composition.
@Suite("Service: Janus rooms", .serialized)
struct ServiceJanusTests {
    /// A serve process taking Janus's events, with a recordings folder of its own and the sample
    /// capture standing in for what the importer makes of a room.
    static func service(backend: QueueBackend, idleSeconds: Double = 2, callback: String? = nil, composition: String? = nil,
                        keepDays: Double? = nil) async throws
        -> (ServiceFixture, String)
    {
        let scratch = try makeTemporaryDirectory(prefix: "stagemix-janus")
        let recordings = "\(scratch)/recordings"
        try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/panel").path
        try FileManager.default.copyItem(atPath: sample, toPath: "\(scratch)/standin")
        var extra = ["--janus-recordings", recordings, "--janus-idle-seconds", "\(idleSeconds)", "--janus-import-stand-in", "\(scratch)/standin"]
        if let callback { extra += ["--janus-callback-url", callback] }
        if let keepDays { extra += ["--janus-keep-days", "\(keepDays)"] }
        if let composition {
            try composition.write(toFile: "\(scratch)/janus-composition.json", atomically: true, encoding: .utf8)
            extra += ["--janus-composition", "\(scratch)/janus-composition.json"]
        }
        return (try await ServiceFixture(backend: backend, extra: extra), recordings)
    }

    /// What Janus writes for a publisher of `room` (only the name matters here).
    static func addRecording(room: Int, publisher: Int, in recordings: String) throws {
        try Data("MJR00002".utf8).write(to: URL(fileURLWithPath: "\(recordings)/videoroom-\(room)-user-\(publisher)-1795768661245000-audio-0.mjr"))
    }

    static func counts(_ reply: ServiceFixture.Reply) -> [Int] {
        ["kept", "duplicates", "unmatched", "dropped"].map { reply.json[$0] as? Int ?? -1 }
    }

    @Test func singlesArraysGzipAndRetransmissionsAreKeptOnce() async throws {
        let (service, _) = try await Self.service(backend: .sqlite, idleSeconds: 3600)
        defer { Task { await service.stop() } }
        var janus = JanusPoster(fixture: service)
        let joined = janus.videoRoom("joined", room: 1234, publisher: 11, handle: 500)
        var reply = try await janus.post(joined)
        #expect(reply.status == 200, "\(reply.body)")
        #expect(Self.counts(reply) == [1, 0, 0, 0], "\(reply.body)")

        // A batch: the publish, the handle's media event (tied to the room through the handle's join),
        // a type-16 event that is not a hangup and a session's event (neither kept).
        let batch = "[" + [janus.videoRoom("published", room: 1234, publisher: 11, handle: 500),
                           janus.handleEvent(type: 32, handle: 500, body: #"{"media":"audio","mid":"0","receiving":true}"#),
                           janus.handleEvent(type: 16, handle: 500, body: #"{"connection":"webrtcup"}"#),
                           janus.sessionEvent()].joined(separator: ",") + "]"
        reply = try await janus.post(batch)
        #expect(Self.counts(reply) == [2, 0, 0, 2], "\(reply.body)")
        // Janus posts a batch again when it thinks the first POST failed: nothing counts twice.
        reply = try await janus.post(batch)
        #expect(Self.counts(reply) == [0, 2, 0, 2], "\(reply.body)")
        reply = try await janus.post(joined, gzip: true)
        #expect(Self.counts(reply) == [0, 1, 0, 0], "\(reply.body)")

        // gzip (`compress = true`), grouped; a media event of a handle nobody joined with belongs to no room.
        let talking = #"{"emitter":"janus-test","type":64,"timestamp":1795768670000000,"session_id":501,"handle_id":500,"event":{"plugin":"janus.plugin.videoroom","data":{"videoroom":"talking","room":1234,"id":11,"audio-level-dBov-avg":-40}}}"#
        let stranger = janus.handleEvent(type: 32, handle: 999, body: #"{"media":"video","receiving":false}"#)
        reply = try await janus.post("[\(talking),\(stranger)]", gzip: true)
        #expect(reply.status == 200, "\(reply.body)")
        #expect(Self.counts(reply) == [1, 0, 1, 0], "\(reply.body)")

        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        let rooms = try await queue.janusRooms()
        #expect(rooms.count == 1)
        let room = try #require(rooms.first)
        #expect(room.room == "1234" && room.emitter == "janus-test" && room.apiKey == ServiceFixture.apiKey)
        #expect(room.eventCount == 4 && room.state.publishing == ["11"] && room.state.hadMedia && room.doneAt == nil)
        let stored = try await queue.janusRoomEvents(id: room.id)
        #expect(stored.first == joined && stored.count == 4 && Set(stored).count == 4)
        #expect(stored.last == talking)
        await queue.close()
    }

    @Test func badCredentialsBodiesAndEncodingsAreRefused() async throws {
        let (service, _) = try await Self.service(backend: .sqlite, idleSeconds: 3600)
        defer { Task { await service.stop() } }
        var janus = JanusPoster(fixture: service)
        let event = janus.videoRoom("joined", room: 1, publisher: 1, handle: 1)
        for reply in [try await janus.post(event, secret: "wrong-secret-wrong-secret-wrong-secret"),
                      try await janus.post(event, key: "nobody"),
                      try await janus.post(event, key: nil),
                      try await janus.post(event, key: nil, bearer: try await ServiceFixture.token())] {
            #expect(reply.status == 401, "\(reply.body)")
            #expect(reply.headers.first(name: "www-authenticate")?.hasPrefix("Basic") == true)
        }
        #expect(try await janus.post("{\"type\": 64,", gzip: false).status == 400)
        #expect(try await janus.post("42").status == 400)
        // A small body that inflates past 16 MiB is refused without being kept.
        let bomb = "[" + String(repeating: " ", count: 17 << 20) + "]"
        #expect(try await janus.post(bomb, gzip: true).status == 413)
        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        #expect(try await queue.janusRooms().isEmpty)
        await queue.close()
    }

    @Test(arguments: QueueBackend.allCases)
    func eachEndedRoomIsHandledOnce(backend: QueueBackend) async throws {
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let (service, recordings) = try await Self.service(backend: backend, idleSeconds: 2, callback: receiver.url,
                                                           composition: #"{"layout": "speaker", "options": {"resolution": "640x360", "fps": 15}}"#,
                                                           keepDays: 0)
        defer { Task { await service.stop() } }
        var janus = JanusPoster(fixture: service)
        // 1001 is destroyed while publishing; 1002's last publisher unpublishes and it goes idle.
        try Self.addRecording(room: 1001, publisher: 1, in: recordings)
        try Self.addRecording(room: 1002, publisher: 2, in: recordings)
        // 1003 had media but Janus recorded nothing; 1004 never had media (its participant never published).
        let bodies = [
            [janus.videoRoom("joined", room: 1001, publisher: 1, handle: 10), janus.videoRoom("published", room: 1001, publisher: 1, handle: 10)],
            [janus.videoRoom("joined", room: 1002, publisher: 2, handle: 20), janus.videoRoom("published", room: 1002, publisher: 2, handle: 20)],
            [janus.videoRoom("joined", room: 1003, publisher: 3, handle: 30), janus.videoRoom("published", room: 1003, publisher: 3, handle: 30)],
            [janus.videoRoom("joined", room: 1004, publisher: 4, handle: 40)],
            [janus.videoRoom("destroyed", room: 1001, handle: 99)],
            [janus.videoRoom("unpublished", room: 1002, publisher: 2), janus.videoRoom("unpublished", room: 1002, publisher: 2)],
            [janus.handleEvent(type: 16, handle: 30, body: #"{"connection":"hangup","reason":"Close PC"}"#)],
            [janus.videoRoom("leaving", room: 1004, publisher: 4)],
        ]
        for body in bodies {
            let reply = try await janus.post("[" + body.joined(separator: ",") + "]")
            #expect(reply.status == 200, "\(reply.body)")
        }
        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        defer { Task { await queue.close() } }
        try await eventually(30, "every room handled") { try await queue.janusRooms().allSatisfy { $0.doneAt != nil } }
        let rooms = Dictionary(uniqueKeysWithValues: try await queue.janusRooms().map { ($0.room, $0) })
        #expect(rooms.count == 4)
        #expect(rooms["1001"]?.outcome == "composed" && rooms["1002"]?.outcome == "composed", "\(rooms)")
        #expect(rooms["1003"]?.outcome == "no-recordings" && rooms["1003"]?.compositionID == nil, "\(rooms)")
        #expect(rooms["1004"]?.outcome == "no-media" && rooms["1004"]?.compositionID == nil, "\(rooms)")

        // Each room with recordings is one composition of the key Janus posted with, composed, with the usual webhooks.
        let ids = [rooms["1001"]?.compositionID, rooms["1002"]?.compositionID].compactMap { $0 }
        #expect(Set(ids).count == 2)
        for id in ids {
            let done = try await service.waitFor(id, status: "completed", seconds: 60)
            let capture = done["capture"] as? String ?? ""
            #expect(capture.contains("/.stagemix-inputs/janus/100"), "\(capture)")
            // Composed as --janus-composition says.
            #expect(done["layout"] as? String == "speaker", "\(done)")
            let options = try #require(try await queue.composition(id: id, apiKey: nil)).1.spec.options
            #expect(options.resolution == "640x360" && options.fps == 15, "\(options)")
            try await eventually(30, "webhooks of \(id)") { receiver.events(of: id).last?.type == "composition.completed" }
            #expect(receiver.events(of: id).first?.type == "composition.queued")
        }
        // The importer was handed the room's events as JSON lines, each once, in the order they came.
        let destroyed = try String(contentsOfFile: try #require(rooms["1001"].map { "\(service.outputRoot)/.stagemix-inputs/janus/1001-\($0.firstEventUs)/janus-events.jsonl" }), encoding: .utf8)
        #expect(destroyed == bodies[0].map { $0 + "\n" }.joined() + bodies[4][0] + "\n")
        let idle = try String(contentsOfFile: "\(service.outputRoot)/.stagemix-inputs/janus/1002-\(rooms["1002"]!.firstEventUs)/janus-events.jsonl", encoding: .utf8)
        #expect(idle.split(separator: "\n").count == 4)

        // Nothing more happens to them, and nothing else was composed.
        try await Task.sleep(for: .seconds(3))
        let list = try await service.request("GET", "/v1/compositions?limit=100", token: try await ServiceFixture.token())
        #expect((list.json["data"] as? [[String: Any]])?.count == 2, "\(list.body)")
        #expect(try await queue.janusRooms().count == 4)
        // With --janus-keep-days 0 the events of done rooms are forgotten at once; the rooms' rows stay.
        try await eventually(10, "the done rooms' events forgotten") { try await queue.janusEventCount() == 0 }
    }

    @Test func eventsOutliveARestartAndTheRoomEndsOnce() async throws {
        let (service, recordings) = try await Self.service(backend: .sqlite, idleSeconds: 2)
        defer { Task { await service.stop() } }
        try Self.addRecording(room: 2001, publisher: 7, in: recordings)
        var janus = JanusPoster(fixture: service)
        let first = [janus.videoRoom("joined", room: 2001, publisher: 7, handle: 70), janus.videoRoom("published", room: 2001, publisher: 7, handle: 70)]
        #expect(try await janus.post("[" + first.joined(separator: ",") + "]").status == 200)
        await service.stop()
        try await service.start()
        // After the restart Janus sends its batch again (it saw no answer), then the publisher leaves.
        let leaving = janus.videoRoom("leaving", room: 2001, publisher: 7)
        let again = try await janus.post("[" + first.joined(separator: ",") + "," + leaving + "]")
        #expect(Self.counts(again) == [1, 2, 0, 0], "\(again.body)")
        let queue = try await QueueURL(service.queueURL).open() as! any SQLJobStore
        defer { Task { await queue.close() } }
        try await eventually(30, "the room handled") { try await queue.janusRooms().first?.doneAt != nil }
        let room = try #require(try await queue.janusRooms().first)
        #expect(room.outcome == "composed" && room.compositionID != nil, "\(room)")
        let events = try String(contentsOfFile: "\(service.outputRoot)/.stagemix-inputs/janus/2001-\(room.firstEventUs)/janus-events.jsonl", encoding: .utf8)
        #expect(events == (first + [leaving]).map { $0 + "\n" }.joined())

        // Restarted again with the room done: it is not handled a second time.
        await service.stop()
        try await service.start()
        try await Task.sleep(for: .seconds(3))
        let rooms = try await queue.janusRooms()
        #expect(rooms.count == 1 && rooms.first?.doneAt == room.doneAt)
        let list = try await service.request("GET", "/v1/compositions?limit=100", token: try await ServiceFixture.token())
        #expect((list.json["data"] as? [[String: Any]])?.count == 1, "\(list.body)")
        #expect(service.log.components(separatedBy: "Janus room ended").count == 2, "\(service.log.suffix(3000))")
    }

    /// A `--janus-composition` that a request could not carry stops serve at start, naming the file and the member.
    @Test func aWrongJanusCompositionStopsServeNamingTheMember() throws {
        let scratch = try makeTemporaryDirectory(prefix: "stagemix-janus-settings")
        try FileManager.default.createDirectory(atPath: "\(scratch)/recordings", withIntermediateDirectories: true)
        try #"{"keys": {"janus": "\#(ServiceFixture.secret)"}}"#.write(toFile: "\(scratch)/keys.json", atomically: true, encoding: .utf8)
        for (document, named) in [(#"{"options": {"fps": "fast"}}"#, "options.fps"), (#"{"layout": "grid", "optons": {}}"#, "optons"),
                                  (#"{"layout": "mosaic"}"#, "layout"), ("[]", "JSON object")] {
            try document.write(toFile: "\(scratch)/settings.json", atomically: true, encoding: .utf8)
            let serve = Process()
            serve.executableURL = URL(fileURLWithPath: try WorkerProcesses.binary)
            serve.arguments = ["serve", "--listen", "127.0.0.1:0", "--queue", "sqlite:\(scratch)/queue.sqlite", "--keys", "\(scratch)/keys.json",
                               "--capture-root", scratch, "--output-root", "\(scratch)/out", "--janus-recordings", "\(scratch)/recordings",
                               "--janus-composition", "\(scratch)/settings.json"]
            let err = Pipe()
            serve.standardError = err
            serve.standardOutput = FileHandle.nullDevice
            try serve.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            serve.waitUntilExit()
            #expect(serve.terminationStatus == 64, "\(document): \(message)")
            #expect(message.contains("--janus-composition \(scratch)/settings.json") && message.contains(named), "\(message)")
        }
    }
}
