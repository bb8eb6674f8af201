import Foundation
import Testing
@testable import StageMixImport
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import videosdk` on a session made by the ffmpeg CLI in VideoSDK's paths and shapes
/// (``VideoSDKRecordingFixture``), then `stagemix compose`: who is seen and heard when, a pause
/// between two files as a mute, in sync where the recording's start and end pin the files.
@Suite("VideoSDK import", .serialized)
struct VideoSDKImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = VideoSDKRecordingFixture
    typealias Colours = HundredMsRecordingFixture

    @Test func aSessionComposesWithEveryoneWhereAndWhenVideoSDKSays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "videosdk", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("warning"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == Fixture.session)
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["\(Fixture.ben)=Ben", "\(Fixture.maya)=Maya"])
        let maya = Fixture.maya
        #expect(read.track("\(maya)-microphone#2").map { abs($0.startOffsetMs - 3_400) <= 30 } == true, "the second file ends at the recording's end")
        #expect(read.track("\(maya)-screen_share")?.startOffsetMs == 1_000 && read.track("\(maya)-screen_share#2")?.startOffsetMs == 3_400)
        #expect(read.track("\(Fixture.ben)-camera")?.startOffsetMs == 2_000, "start as Unix milliseconds")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains("the recording's start for the first file and its end for the last"), "\(note)")

        let output = try AgoraImportTests.compose(capture, in: root).output
        let stage = SeenAndHeard(output, tones: [440, 660, 880], over: 0.3...5.8)
        let (red, yellow, green, blue) = (Colours.red, Colours.yellow, Colours.green, Colours.blue)
        stage.expect(at: 0.5, seen: [(red, true), (green, false), (blue, false)], heard: [(440, true), (880, false)])
        stage.expect(at: 1.5, seen: [(red, true), (green, true), (blue, false)], heard: [(440, true), (880, false)])
        stage.expect(at: 2.2, seen: [(red, true), (green, true), (blue, true)], heard: [(440, true), (880, true)])
        // Between the files: Maya's microphone muted, her screen share paused (the placeholder, not its last picture).
        stage.expect(at: 3.0, seen: [(red, true), (green, false), (blue, true)], heard: [(440, false), (660, false), (880, true)])
        stage.expect(at: 4.2, seen: [(yellow, true), (green, true), (blue, true)], heard: [(660, true), (880, true)])
        stage.expect(at: 5.5, seen: [(yellow, true), (green, false), (blue, true)], heard: [(660, true), (880, true)])
        // The second audio file and the video's change both at 3.4 s: in sync to a frame and 20 ms.
        let onsets = stage.onsets(of: yellow, and: 660, in: 2.9...4.0)
        let picture = try #require(onsets.picture), sound = try #require(onsets.sound)
        #expect(abs(picture - sound) <= 1.0 / 15 + 0.020 && abs(picture - 3.4) <= 1.0 / 15 + 0.020, "picture \(picture) s, sound \(sound) s")
    }

    /// A file the webhook names but the folder lacks: a warning and lost media where it would have been.
    @Test func aMissingFileIsLostMediaNotAnError() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try FileManager.default.removeItem(at: fixture.file(Fixture.maya, "screen_video", "1795716003400.webm"))
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "videosdk", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("1795716003400.webm") && imported.stderr.contains("no such file"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        let lost = try #require(read.track("\(Fixture.maya)-screen_share#2"))
        #expect(lost.startOffsetMs > 2_500 && lost.startOffsetMs < 5_000, "in the time the first file leaves: \(lost.startOffsetMs)")
        #expect(!FileManager.default.fileExists(atPath: capture.appendingPathComponent(try #require(lost.layers.first?.file)).path))
    }

    /// A member of the wrong type in VideoSDK's JSON refuses the import, naming the file and the member; nothing is written.
    @Test func aMalformedDocumentExits65NamingFileAndMember() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try fixture.webhooks(fileDetailsValue: #"[{"filePath":42}]"#).joined(separator: "\n")
            .write(to: fixture.directory.appendingPathComponent("webhooks.jsonl"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let refused = try CLI.run(["import", "videosdk", fixture.directory.path, "--out", capture.path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("webhooks.jsonl line 1") && refused.stderr.contains("$.data.fileDetails[0].filePath"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }

    @Test func filesArePlacedByTheirOwnClockOrBetweenTheRecordingsStartAndEnd() {
        typealias File = VideoSDKPlacement.File
        let zeroBased = VideoSDKPlacement([File(firstMs: 0, durationMs: 2_000), File(firstMs: 0, durationMs: 1_000), File(firstMs: 0, durationMs: 1_000)],
                                          start: 10_000, end: 16_000)
        #expect(zeroBased.placed.map(\.startMs) == [10_000, 13_000, 15_000] && !zeroBased.isExact, "2 s unfilled, shared by two pauses")
        let oneClock = VideoSDKPlacement([File(firstMs: 0, durationMs: 2_000), File(firstMs: 3_500, durationMs: 1_000)], start: 10_000, end: 20_000)
        #expect(oneClock.placed.map(\.startMs) == [10_000, 13_500] && oneClock.isExact)
        let lost = VideoSDKPlacement([File(firstMs: 0, durationMs: 2_000), File(firstMs: nil, durationMs: nil)], start: 0, end: 6_000)
        #expect(lost.placed == [.init(startMs: 0, durationMs: 2_000), .init(startMs: 4_000, durationMs: 2_000)])
        let open = VideoSDKPlacement([File(firstMs: 0, durationMs: 2_000), File(firstMs: 0, durationMs: 1_000)], start: 0, end: nil)
        #expect(open.placed.map(\.startMs) == [0, 2_000] && open.basis.contains("pauses between them are unknown"))
        #expect(VideoSDKFilePath("https://cdn.videosdk.live/rec/s1/p1/screen_video/f.webm?x=1") == VideoSDKFilePath("s1/p1/screen_video/f.webm"))
        #expect(VideoSDKFilePath("s1/p1/webcam/f.webm") == nil)
    }
}
