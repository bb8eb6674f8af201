import Foundation
import Testing
@testable import StageMixImport
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import daily` on a raw-tracks recording made by the ffmpeg CLI in Daily's names and
/// shapes (``DailyRecordingFixture``), then `stagemix compose`: who is seen and heard when, in sync.
@Suite("Daily import", .serialized)
struct DailyImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = DailyRecordingFixture

    static func importing(_ directory: URL, to capture: URL, _ extra: [String] = []) throws -> CommandLineTests.Run {
        try CLI.run(["import", "daily", directory.path, "--out", capture.path] + extra)
    }

    /// How far the session's zero is from the recording's start (Opus's pre-skip puts the first sample a few ms before).
    static func skew(_ capture: Capture) -> Int {
        Int((capture.startedAt.timeIntervalSince1970 * 1000).rounded()) - Int(Fixture.zero)
    }

    @Test func aRecordingComposesWithEveryoneWhereAndWhenDailySays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try Self.importing(fixture.directory, to: capture)
        #expect(imported.status == 0, "\(imported.stderr)")
        // Lena's two files are lost, and said so; nothing else is a warning.
        let warnings = imported.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 2, "\(imported.stderr)")
        #expect(imported.stderr.contains("\(Fixture.name(Fixture.lena, "cam-video", at: 500)): listed in webhooks/ready.jsonl line 1 but not in the folder"), "\(imported.stderr)")
        #expect(imported.stderr.contains("\(Fixture.name(Fixture.lena, "cam-audio", at: 500)): empty"), "\(imported.stderr)")

        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == "5d7c2b1a-0e9f-4a8b-b6c5-d4e3f2a1b0c9")
        #expect(read.participants.map(\.name).sorted() == ["Lena", "Maya", "Omar"], "\(read.participants)")
        #expect(read.track("\(Fixture.maya)-screen-video")?.source == .screenShare)
        // Omar's camera is placed by its timestamps (1.5 s), not by its name (1.3 s); the session's zero is
        // Maya's microphone's first sample, Opus's pre-skip (7 ms) before the recording's start.
        let skew = Self.skew(read)
        #expect((-10...0).contains(skew) && read.track("\(Fixture.maya)-cam-audio")?.startOffsetMs == 0, "\(skew)")
        #expect(read.track("\(Fixture.omar)-cam-video")?.startOffsetMs == 1_500 - skew, "\(skew)")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains("\(Fixture.name(Fixture.omar, "cam-video", at: 1_300)): first sample 1500 ms into the recording by its timestamps, 1300 ms by its name, "
                              + "1300 ms by mediaStartTime (\(Fixture.prefix)/\(Fixture.zero).event.json); its timestamps place it"), "\(note)")

        let (output, out) = try AgoraImportTests.compose(capture, in: root)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lost = try #require(report?["lostMedia"] as? [String: String])
        #expect(lost.keys.filter { $0.contains(Fixture.lena) }.count == 2, "\(lost)")

        func seen(_ colour: RGBColor, at t: Double) -> Double {
            output.frame(at: t).map { AgoraImportTests.look(for: colour, in: $0).share } ?? 0
        }
        func heard(_ hz: Double, at t: Double) -> Double { tonePower(hz, in: output.audio(from: t - 0.15, to: t + 0.15)) }
        let loud = Dictionary(uniqueKeysWithValues: [440.0, 660, 880].map { hz in (hz, stride(from: 0.3, to: 5.8, by: 0.25).map { heard(hz, at: $0) }.max() ?? 0) })
        // (time, colours seen, colours not seen, tones heard, tones not heard)
        let expectations: [(Double, [RGBColor], [RGBColor], [Double], [Double])] = [
            (0.8, [Fixture.red], [Fixture.blue, Fixture.green, Fixture.yellow], [440], [660, 880]),
            (1.2, [Fixture.red], [Fixture.blue], [440], [660]),       // Omar's name says 1.3 s, his files 1.5 s
            (2.4, [Fixture.blue], [Fixture.red], [440, 660], [880]),  // Maya's camera off: a placeholder, not her last frame
            (3.2, [Fixture.red, Fixture.blue], [Fixture.green, Fixture.yellow], [440, 660], [880]),
            (3.9, [Fixture.red, Fixture.green, Fixture.yellow], [Fixture.blue], [440, 880], [660]),
            (4.6, [Fixture.red, Fixture.green], [Fixture.yellow], [440, 880], [660]),  // the screen share paused
            (5.5, [Fixture.red, Fixture.green, Fixture.yellow], [], [440, 880], [660]),
        ]
        for (t, shown, hidden, tones, silent) in expectations {
            for colour in shown { #expect(seen(colour, at: t) > 0.01, "\(colour) not seen at \(t) s") }
            for colour in hidden { #expect(seen(colour, at: t) < 0.002, "\(colour) seen at \(t) s") }
            for hz in tones { #expect(heard(hz, at: t) > loud[hz]! * 0.05, "\(hz) Hz not heard at \(t) s") }
            for hz in silent { #expect(heard(hz, at: t) < loud[hz]! * 0.01, "\(hz) Hz heard at \(t) s") }
        }
        // Sync: Omar's picture turns green as his tone turns 880 Hz, 3.5 s into the recording by his files'
        // timestamps; had his camera's name placed it, the picture would turn 200 ms early.
        let frames = output.frames.filter { $0.time > 3.0 && $0.time < 4.0 }
        let greenAt = try #require(frames.first { AgoraImportTests.look(for: Fixture.green, in: $0.frame).share > 0.01 }?.time)
        let onset = try #require(stride(from: 3.0, to: 4.0, by: 0.005).first {
            heard(880, at: $0 + 0.15) > loud[880]! * 0.1 && tonePower(880, in: output.audio(from: $0, to: $0 + 0.02)) > loud[880]! * 0.02
        })
        #expect(abs(greenAt - onset) <= 1.0 / 15 + 0.020, "picture \(greenAt) s, tone \(onset) s")
        #expect(abs(greenAt - 3.5) <= 1.0 / 15 + 0.020, "green at \(greenAt) s")
    }

    /// Without Daily's events the names are the session ids, each with a warning; a file whose timestamps
    /// do not count from the recording's start (rewritten from zero) is placed by its name.
    @Test func withoutEventsNamesAreSessionIdsAndRewrittenTimestampsYieldToTheName() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root, events: false)
        let late = Fixture.name(Fixture.lena, "cam-audio", at: 2_500)
        try FileManager.default.removeItem(at: fixture.media.appendingPathComponent(Fixture.name(Fixture.lena, "cam-audio", at: 500)))
        try Fixture.audio(fixture.media.appendingPathComponent(late), [660], seconds: 1, from: 0)
        let capture = root.appendingPathComponent("capture")
        let imported = try Self.importing(fixture.directory, to: capture)
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.participants.map(\.name).sorted() == [Fixture.lena, Fixture.maya, Fixture.omar].sorted())
        #expect(imported.stderr.contains("participant \(Fixture.omar): no displayName"), "\(imported.stderr)")
        #expect(imported.stderr.contains("\(late): its timestamps start -2507 ms from its name's start"), "\(imported.stderr)")
        let skew = Self.skew(read)
        // Her earlier microphone, which the webhook lists, is lost where its name says it started; this one is the second.
        #expect(read.track("\(Fixture.lena)-cam-audio")?.startOffsetMs == 500 - skew)
        #expect(read.track("\(Fixture.lena)-cam-audio#2")?.startOffsetMs == 2_500 - skew)
        // Maya's camera gap is a mute, from where its frames stop to where they start again.
        let camera = "\(Fixture.maya)-cam-video"
        let events = read.events.compactMap { event -> String? in
            switch event.action {
            case .trackPublished(camera): "published@\(event.atMs + skew)"
            case .trackMuted(camera): "muted@\(event.atMs + skew)"
            case .trackUnmuted(camera): "unmuted@\(event.atMs + skew)"
            case .trackUnpublished(camera): "unpublished@\(event.atMs + skew)"
            default: nil
            }
        }
        #expect(events == ["published@0", "muted@1800", "unmuted@3000", "unpublished@6000"], "\(events)")
        // Without its pause events the screen share's gap says nothing: a still screen sends no frames.
        #expect(!read.events.contains { $0.action == .trackMuted(trackId: "\(Fixture.maya)-screen-video") })
    }

    /// A member of the wrong type in Daily's JSON refuses the import, naming the file and the member; nothing is written.
    @Test(arguments: ["webhook", "events"])
    func aMalformedDocumentExits65NamingFileAndMember(_ which: String) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let (file, member): (String, String)
        if which == "webhook" {
            file = "webhooks/ready.jsonl"
            member = "line 1: $.payload.tracks[0].s3Key"
            try fixture.webhook(s3KeyValue: "42").write(to: fixture.directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        } else {
            file = "\(Fixture.prefix)/\(Fixture.zero).event.json"
            member = "$.events[7].data.mediaStartTime"
            try fixture.eventJSON(mediaStartValue: "\"soon\"").write(to: fixture.directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let capture = root.appendingPathComponent("capture")
        let refused = try Self.importing(fixture.directory, to: capture)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains(file) && refused.stderr.contains(member), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }

    @Test func dailysNamesSayWhoseTrackAFileIs() throws {
        let name = try #require(DailyFileName("1795716000000-3f2b6c1e-8a4d-4e2f-9b1a-5c7d9e0f1a21-screen-audio-1795716003500.webm"))
        #expect(name.recordingStartMs == 1_795_716_000_000 && name.trackStartMs == 1_795_716_003_500)
        #expect(name.participant == "3f2b6c1e-8a4d-4e2f-9b1a-5c7d9e0f1a21" && name.source == .screenShareAudio)
        let custom = try #require(DailyFileName("1795716000000-3f2b6c1e-8a4d-4e2f-9b1a-5c7d9e0f1a21-whiteboard-1795716003500.webm"))
        #expect(custom.type == "whiteboard" && custom.source == nil)
        #expect(DailyFileName("1795716000000-x-cam-video-1795716.webm") == nil, "seconds where milliseconds belong")
        #expect(DailyFileName("notes.webm") == nil && DailyFileName("1795716000000-p-cam-video-1795716000000.mp4") == nil)
        #expect(DailyImport.merged([5...9, 0...2, 1...3, 8...20], within: 1...15) == [1...3, 5...15])
    }
}
