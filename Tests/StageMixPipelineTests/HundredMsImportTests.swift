import Foundation
import Testing
@testable import StageMixImport
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import 100ms` on a session made by the ffmpeg CLI in 100ms's shapes
/// (``HundredMsRecordingFixture``), then `stagemix compose`: who is seen and heard when, in sync
/// where 100ms's data gives the start, within the stated uncertainty where it does not.
@Suite("100ms import", .serialized)
struct HundredMsImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = HundredMsRecordingFixture

    @Test func aSessionComposesWithEveryoneWhereAndWhen100msSays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "100ms", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("warning"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == Fixture.session)
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["\(Fixture.maya)=Maya", "\(Fixture.ben)=Ben"])
        let screen = try #require(read.track("\(Fixture.maya)-screen_share"), "a track in its own stream that the track events call screen")
        #expect(screen.startOffsetMs == 1_000)
        #expect(read.track("\(Fixture.ben)-camera").map { abs($0.startOffsetMs - 2_000) <= 100 } == true, "Ben's start: his left_at less his file's length")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains("started_at in 100ms's track events"), "\(note)")
        #expect(note.contains("the peer's left_at less the file's length: exact only if"), "\(note)")
        #expect(note.contains("tr-ben-mic"), "import.json's tracks name 100ms's track ids")

        let output = try AgoraImportTests.compose(capture, in: root).output
        let stage = SeenAndHeard(output, tones: [440, 660, 880], over: 0.3...5.8)
        let (red, yellow, green, blue) = (Fixture.red, Fixture.yellow, Fixture.green, Fixture.blue)
        stage.expect(at: 0.5, seen: [(red, true), (green, false), (blue, false)], heard: [(440, true), (880, false)])
        stage.expect(at: 1.3, seen: [(red, true), (green, true), (blue, false)], heard: [(440, true), (880, false)])
        // Maya's screen share paused (a hole in its file): the placeholder, not its last picture.
        stage.expect(at: 2.6, seen: [(red, true), (green, false), (blue, true)], heard: [(440, true), (880, true)])
        stage.expect(at: 3.8, seen: [(yellow, true), (green, true), (blue, true)], heard: [(660, true), (880, true)])
        // Maya's microphone muted from 4 to 5 s by track.update.success; her screen share removed at 4 s.
        stage.expect(at: 4.5, seen: [(yellow, true), (green, false), (blue, true)], heard: [(660, false), (880, true)])
        stage.expect(at: 5.5, seen: [(yellow, true), (blue, true)], heard: [(660, true), (880, true)])
        // Maya's tracks are placed by started_at: her picture and sound change together at 3 s.
        let onsets = stage.onsets(of: yellow, and: 660, in: 2.5...3.6)
        let picture = try #require(onsets.picture), sound = try #require(onsets.sound)
        #expect(abs(picture - sound) <= 1.0 / 15 + 0.020 && abs(picture - 3.0) <= 1.0 / 15 + 0.020, "picture \(picture) s, sound \(sound) s")
        // Ben's start is only as good as "his track lasted until he left", which it did: to 100 ms.
        let ben = try #require(stage.onsets(of: blue, and: 880, in: 1.6...2.8).picture)
        #expect(abs(ben - 2.0) <= 0.1, "Ben seen from \(ben) s")
    }

    /// A file the webhook names but the folder lacks: a warning and lost media, the rest imported.
    @Test func aMissingFileIsLostMediaNotAnError() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try FileManager.default.removeItem(at: fixture.file("tr-ben-cam"))
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "100ms", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("tr-ben-cam.webm") && imported.stderr.contains("no such file"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        let lost = try #require(read.track("\(Fixture.ben)-camera"))
        #expect(abs(lost.startOffsetMs - 2_000) <= 100, "placed by the webhook's duration (\"4\") from Ben's left_at")
        let file = try #require(lost.layers.first?.file)
        #expect(!FileManager.default.fileExists(atPath: capture.appendingPathComponent(file).path))
        #expect(read.track("\(Fixture.ben)-microphone") != nil)
        let (output, out) = try AgoraImportTests.compose(capture, in: root)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lostMedia = try #require(report?["lostMedia"] as? [String: String])
        #expect(lostMedia.keys.contains { $0.hasSuffix("tr-ben-cam.webm") }, "\(lostMedia)")
        let stage = SeenAndHeard(output, tones: [880], over: 2.3...5.8)
        stage.expect(at: 2.6, seen: [(Fixture.red, true), (Fixture.blue, false)], heard: [(880, true)])
    }

    /// A member of the wrong type in 100ms's JSON refuses the import, naming the file and the member; nothing is written.
    @Test func aMalformedDocumentExits65NamingFileAndMember() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try fixture.webhooks(durationValue: "true").joined(separator: "\n")
            .write(to: fixture.directory.appendingPathComponent("webhooks/events.jsonl"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let refused = try CLI.run(["import", "100ms", fixture.directory.path, "--out", capture.path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("webhooks/events.jsonl line 8") && refused.stderr.contains("$.data.duration"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }

    @Test func theStartComesFromTheBestClueAndSaysHowGoodItIs() throws {
        typealias Clues = HundredMsPlacement.Clues
        let exact = try #require(HundredMsPlacement.estimate(Clues(durationMs: 4_000, trackStartedMs: 10_000, successSentMs: 90_000, joinedMs: 9_000)))
        #expect(exact.startMs == 10_000 && exact.isExact)
        let confirmed = try #require(HundredMsPlacement.estimate(Clues(durationMs: 4_000, recordingStartedMs: 12_000, joinedMs: 9_000, leftMs: 16_400)))
        #expect(confirmed.startMs == 12_400 && confirmed.isExact, "the leave less the length, within 1.5 s of the started webhook")
        let stamped = try #require(HundredMsPlacement.estimate(Clues(durationMs: 2_000, recordingStartedMs: 12_000, joinedMs: 9_000, leftMs: 30_000)))
        #expect(stamped.startMs == 12_000 && !stamped.isExact, "a screen share stopped long before its peer left")
        let late = try #require(HundredMsPlacement.estimate(Clues(durationMs: 4_000, successSentMs: 90_000)))
        #expect(late.startMs == 86_000 && !late.isExact && late.basis.contains("webhook's time"), "only the upload's end bounds it")
        let joined = try #require(HundredMsPlacement.estimate(Clues(durationMs: 4_000, successSentMs: 90_000, joinedMs: 9_000)))
        #expect(joined.startMs == 9_000 && joined.basis.contains("joined_at"), "the join beats a webhook sent after the upload")
        let early = try #require(HundredMsPlacement.estimate(Clues(durationMs: 4_000, recordingStartedMs: 8_000, joinedMs: 9_000)))
        #expect(early.startMs == 9_000 && early.basis.contains("moved to the peer's joined_at"))
        #expect(HundredMsPlacement.estimate(Clues(durationMs: 4_000)) == nil)
        #expect(VideoGaps.union([5...8, 1...3, 2...4]) == [1...4, 5...8], "an event's mute and a hole in the file, joined")
    }
}
