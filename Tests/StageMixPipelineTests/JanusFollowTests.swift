import Foundation
import Testing
import StageMixCapture
@testable import StageMixImport
import StageMixTestSupport

/// `import janus --follow`: a room imported while Janus records it (``SyntheticJanusRoom`` writes the
/// `.mjr` files and the events log as Janus does, stdio buffering included), composed at the same
/// time by `compose --follow`, gives the composition a whole import and a whole run of the finished
/// recording give; every version of `session.json` only adds to the one before; a Janus that stops
/// writing ends the follow with exit 75.
@Suite("Janus: import --follow", .serialized)
struct JanusFollowTests {
    typealias CLI = CommandLineTests
    static let encoding = ["--chunk-seconds", "4", "--resolution", "640x360", "--fps", "15", "--preset", "ultrafast"]

    /// Reads `session.json` while it is replaced, keeping each version that differs from the one before.
    final class VersionWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        private(set) var versions: [CaptureManifest] = []
        /// For each version, the room's clock (ms) when it was first read.
        private(set) var readAtMs: [Int] = []
        private var thread: Thread?

        init(_ file: URL, clock: @escaping @Sendable () -> Int) {
            let thread = Thread { [self] in
                while !lock.withLock({ stopped }) {
                    if let data = FileManager.default.contents(atPath: file.path),
                       let version = try? JSONDecoder().decode(CaptureManifest.self, from: data) {
                        let now = clock()
                        lock.withLock {
                            if versions.last != version {
                                versions.append(version)
                                readAtMs.append(now)
                            }
                        }
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            self.thread = thread
            thread.start()
        }

        func stop() -> [CaptureManifest] {
            lock.withLock { stopped = true }
            Thread.sleep(forTimeInterval: 0.1)
            return lock.withLock { versions }
        }
    }

    @Test func aRoomImportedWhileRecordedComposesAsTheWholeRecordingDoes() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = try SyntheticJanusRoom(in: root)
        let live = root.appendingPathComponent("live"), followed = root.appendingPathComponent("followed")
        try room.write(upTo: SyntheticJanusRoom.t0)
        let importer = try FollowTests.start(["import", "janus", room.folder.path, "--events", room.events.path, "--out", live.path, "--follow"],
                                             log: root.appendingPathComponent("import.log"))
        let speed = 2.5, started = Date()
        let recorder = Thread { try? room.play(speed: speed) }
        recorder.start()
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) {
            #expect(importer.isRunning, "import --follow stopped before its first version")
            if !importer.isRunning { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let watch = VersionWatch(live.appendingPathComponent("session.json")) { Int(Date().timeIntervalSince(started) * speed * 1000) }
        let composed = try CLI.run(["compose", live.path, "--out", followed.path, "--follow"] + Self.encoding)
        importer.waitUntilExit()
        let versions = watch.stop()
        let importLog = (try? String(contentsOf: root.appendingPathComponent("import.log"), encoding: .utf8)) ?? ""
        #expect(importer.terminationStatus == 0, "\(importLog)")
        #expect(composed.status == 0, "\(composed.stderr)")
        #expect(!importLog.contains("warning:"), "a clean room imports without a warning: \(importLog)")

        // Versions were read while the room grew, each complete further, each only adding to the one before.
        let complete = versions.compactMap { $0.recording?.completeToMs }
        #expect(complete.count >= 3, "\(complete)")
        #expect(complete == complete.sorted() && Set(complete).count == complete.count, "\(complete)")
        for (before, after) in zip(versions, versions.dropFirst()) {
            #expect(Array(after.events.prefix(before.events.count)) == before.events, "an event said was changed")
            for track in before.tracks { #expect(after.tracks.contains(track), "track \(track.id) was changed") }
            for participant in before.participants { #expect(after.participants.contains(participant)) }
            if let limit = before.recording?.completeToMs {
                #expect(after.events.dropFirst(before.events.count).allSatisfy { $0.atMs >= limit }, "an event was added before \(limit) ms")
            }
        }
        #expect(versions.last?.recording == nil && versions.last?.events.last?.type == "session.ended")
        // Never said complete past the room's clock, and kept close behind it once the first recordings are listed.
        let lags = zip(versions, watch.readAtMs).compactMap { version, at in version.recording.map { at - $0.completeToMs } }
        FileHandle.standardError.write(Data("janus follow lags (room ms behind): \(lags), complete \(complete)\n".utf8))
        #expect(lags.allSatisfy { $0 > 0 }, "\(lags)")
        #expect(lags.dropFirst(2).allSatisfy { $0 < 3000 }, "\(lags)")

        // The whole import of the finished recording, composed whole.
        let capture = root.appendingPathComponent("capture"), whole = root.appendingPathComponent("whole")
        let imported = try CLI.run(["import", "janus", room.folder.path, "--events", room.events.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Data(contentsOf: live.appendingPathComponent("session.json")) == Data(contentsOf: capture.appendingPathComponent("session.json")),
                "the last version is the whole import's session.json")
        #expect(try CLI.run(["compose", capture.path, "--out", whole.path] + Self.encoding).status == 0)
        for name in ["plan.json", "timeline.json", "billing.json"] {
            #expect(try Data(contentsOf: followed.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name) differs")
        }
        let mine = try FollowTests.streams(followed), theirs = try FollowTests.streams(whole)
        #expect(mine.video == theirs.video && !mine.video.isEmpty, "the video packets differ from the whole run's")
        #expect(mine.audioTimes == theirs.audioTimes)
        // Some of it was composed while the room was recorded.
        let during = composed.stderr.firstMatch(of: /(\d+) of (\d+) chunks while it was recorded/)
        #expect((during.flatMap { Int($0.1) } ?? 0) >= 1, "\(composed.stderr)")
    }

    /// The versions say only more: what was said stays as said (a track's size, an event), an event
    /// learnt late is put at the completeToMs already said, and nothing at or past the new one is told.
    @Test func aVersionOnlyAddsToWhatWasSaid() {
        func track(_ id: String, width: Int) -> CaptureManifest.Track {
            CaptureManifest.Track(id: id, participantId: "a", kind: .video, source: .camera, startOffsetMs: 270,
                                  layers: [TrackLayer(quality: .high, width: width, height: width * 3 / 4, file: "media/\(id).webm")])
        }
        func room(_ tracks: [CaptureManifest.Track], _ events: [ManifestEvent]) -> CaptureManifest {
            CaptureManifest(sessionId: "janus-room-1", startedAt: "2026-11-20T18:00:00.000Z", participants: [Participant(id: "a", name: "Ana")],
                            tracks: tracks, events: events + [ManifestEvent(atMs: 86_400_000, type: "session.ended")])
        }
        let start: [ManifestEvent] = [.joined(0, "a", mode: "SIGNALLING_ONLY"), .modeChanged(200, "a", mode: "SEND_AND_RECV"), .pinned(200, "a"), .published(200, "a-video-1")]
        var versions = JanusFollowedManifest()
        let first = versions.next(room([track("a-video-1", width: 320)], start + [.unpublished(86_400_000, "a-video-1")]), completeToMs: 1000)
        #expect(first.events == start && first.recording?.completeToMs == 1000)
        // Later: the picture grew, a second track turned out to be published at 500 ms, and the first ends at 3 s.
        let second = versions.next(room([track("a-video-1", width: 640), track("a-video-2", width: 320)],
                                        start + [.published(500, "a-video-2"), .unpublished(3000, "a-video-1")]), completeToMs: 2000)
        #expect(second.tracks.first { $0.id == "a-video-1" }?.layers?.first?.width == 320, "a track said stays as said")
        #expect(second.events == start + [.published(1000, "a-video-2")], "the late event at the completeToMs said, none at or past 2000")
        #expect(versions.warnings.count == 2, "\(versions.warnings)")
        // completeToMs never goes back; the last version has every event and no recording.
        #expect(versions.next(room([], start), completeToMs: 1500).recording?.completeToMs == 2000)
        let last = versions.next(room([track("a-video-1", width: 640)], start + [.unpublished(3000, "a-video-1")]), completeToMs: nil)
        #expect(last.recording == nil && last.events.suffix(2).map(\.type) == ["track.unpublished", "session.ended"])
        #expect(last.events.prefix(5) == second.events[...])
    }

    @Test func aJanusThatStopsWritingEndsTheFollowWithExit75() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = try SyntheticJanusRoom(in: root)
        try room.write(upTo: SyntheticJanusRoom.ms(3000))   // Janus dies 3 s into the room
        let live = root.appendingPathComponent("live")
        let started = Date()
        let stalled = try CLI.run(["import", "janus", room.folder.path, "--events", room.events.path, "--out", live.path, "--follow", "--follow-timeout", "2"])
        #expect(stalled.status == 75, "\(stalled.stderr)")
        #expect(stalled.stderr.contains("added nothing") && stalled.stderr.contains("2 s"), "\(stalled.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        // The capture stays as last written: in progress, complete to somewhere inside what was recorded.
        let last = try JSONDecoder().decode(CaptureManifest.self, from: Data(contentsOf: live.appendingPathComponent("session.json")))
        let complete = try #require(last.recording?.completeToMs)
        #expect(complete > 0 && complete < 3000, "\(complete)")
        #expect(!last.events.contains { $0.type == "session.ended" })
        // An existing --out is refused.
        #expect(try CLI.run(["import", "janus", room.folder.path, "--events", room.events.path, "--out", live.path, "--follow"]).status == 73)
    }
}
