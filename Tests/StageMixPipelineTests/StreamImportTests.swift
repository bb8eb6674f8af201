import Foundation
import Testing
@testable import StageMixImport
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import stream` on a call's individual recordings made by the ffmpeg CLI in Stream's names
/// and shapes (``StreamRecordingFixture``), then `stagemix compose`: who is seen and heard when, in sync.
@Suite("Stream import", .serialized)
struct StreamImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = StreamRecordingFixture
    typealias Colours = AgoraRecordingFixture

    @Test func aFileNameSaysWhoseTrackItIs() throws {
        let audio = try #require(StreamFileName("rec_default_abc_individual_user_with_underscores_audio_only_1795716000123.mkv"))
        #expect(audio.user == "user_with_underscores" && audio.type == .audioOnly && audio.startMs == 1_795_716_000_123)
        let screen = try #require(StreamFileName("individual_bob_screenshare_audio_only_1795716000000.mkv"))
        #expect(screen.user == "bob" && screen.type.sources == [.screenShareAudio])
        #expect(StreamFileName("rec_x_individual_bob_audio_only_17957.mkv") == nil, "not a plausible Unix ms")
        #expect(StreamFileName("rec_x_composite_bob_audio_only_1795716000000.mkv") == nil)
    }

    @Test func aCallComposesWithEveryoneWhereAndWhenStreamSays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "stream", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(Fixture.carolVideo) && imported.stderr.contains("not in the folder"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == Fixture.session)
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["alice=Alice", "bob=bob", "carol=carol"])
        #expect(read.tracks.map(\.id).sorted() == ["alice-camera", "alice-microphone", "bob-camera", "bob-microphone", "carol-camera"])
        #expect(read.track("bob-microphone")?.startOffsetMs == 2_000, "placed by its name")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains(Fixture.bobAudio) && note.contains("placed at the start in its name"), "\(note)")

        let (output, out) = try AgoraImportTests.compose(capture, in: root)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lost = try #require(report?["lostMedia"] as? [String: String])
        #expect(lost.keys.contains { $0.hasSuffix(Fixture.carolVideo) }, "\(lost)")
        func seen(_ colour: RGBColor, at t: Double) -> Double { output.frame(at: t).map { AgoraImportTests.look(for: colour, in: $0).share } ?? 0 }
        func heard(_ hz: Double, at t: Double) -> Double { tonePower(hz, in: output.audio(from: t - 0.15, to: t + 0.15)) }
        let loud = [440.0, 660, 880].map { hz in stride(from: 0.3, to: 5.8, by: 0.25).map { heard(hz, at: $0) }.max() ?? 0 }
        // (time, Alice's colour, Alice's tone, Bob's colour or nil)
        let expectations: [(Double, RGBColor, Double, RGBColor?)] = [
            (0.6, Colours.red, 440, nil), (2.5, Colours.red, 440, Colours.blue), (3.3, Colours.green, 660, Colours.blue),
            (4.3, Colours.green, 660, Colours.yellow), (5.5, Colours.green, 660, nil),
        ]
        for (t, colour, tone, bob) in expectations {
            #expect(seen(colour, at: t) > 0.03, "Alice not seen at \(t) s")
            #expect(heard(tone, at: t) > loud[[440, 660].firstIndex(of: tone)!] * 0.05, "Alice not heard at \(t) s")
            if let bob {
                #expect(seen(bob, at: t) > 0.01, "Bob not seen at \(t) s")
                #expect(heard(880, at: t) > loud[2] * 0.05, "Bob not heard at \(t) s")
            } else {
                #expect(seen(Colours.blue, at: t) < 0.002 && seen(Colours.yellow, at: t) < 0.002, "Bob seen at \(t) s")
                #expect(heard(880, at: t) < loud[2] * 0.01, "Bob heard at \(t) s")
            }
        }
        // Once Bob's picture is upright, only the new picture shows: no old landscape pixels around it.
        #expect(seen(Colours.blue, at: 4.3) < 0.002, "Bob's landscape picture still shown after it turned upright")
        // Sync: Alice's picture turns green as her tone turns 660 Hz (two files), 3 s in.
        let frames = output.frames.filter { $0.time > 2.5 && $0.time < 3.6 }
        let greenAt = try #require(frames.first { AgoraImportTests.look(for: Colours.green, in: $0.frame).share > 0.03 }?.time)
        let onset = try #require(stride(from: 2.5, to: 3.6, by: 0.005).first {
            heard(660, at: $0 + 0.15) > loud[1] * 0.1 && tonePower(660, in: output.audio(from: $0, to: $0 + 0.02)) > loud[1] * 0.02
        })
        #expect(abs(greenAt - onset) <= 1.0 / 15 + 0.020, "picture \(greenAt) s, tone \(onset) s")
        #expect(abs(greenAt - 3.0) <= 1.0 / 15 + 0.020, "green at \(greenAt) s")
    }

    /// A member of the wrong type refuses the import, naming the file (and line) and the member; nothing is written.
    @Test func aMalformedDocumentExits65NamingFileAndMember() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try fixture.webhooks(aliceStart: "[1]").joined(separator: "\n")
            .write(to: fixture.directory.appendingPathComponent("webhooks.jsonl"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let refused = try CLI.run(["import", "stream", fixture.directory.path, "--out", capture.path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("webhooks.jsonl line 2") && refused.stderr.contains("$.call_recording.start_time"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }
}
