import Foundation
import Testing
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import zegocloud` on a recording made by the ffmpeg CLI in ZEGOCLOUD's names and shapes
/// (``ZegoRecordingFixture``), then `stagemix compose`: who is seen and heard when, in sync.
@Suite("ZEGOCLOUD import", .serialized)
struct ZegoCloudImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = ZegoRecordingFixture
    typealias Colours = AgoraRecordingFixture

    @Test func aRecordingComposesWithEveryoneWhereAndWhenZegoCloudSays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "zegocloud", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(Fixture.lin) && imported.stderr.contains("status 5"), "the failed upload is a warning: \(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == Fixture.room)
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["u1001=Maya", "u1003=Lin", "u1002=Omar"])
        #expect(read.tracks.map(\.id).sorted() == ["u1001-camera", "u1001-microphone", "u1002-camera", "u1002-microphone", "u1003-camera", "u1003-microphone"])
        #expect(read.track("u1002-camera")?.startOffsetMs == 2_000 && read.track("u1001-microphone")?.file?.hasSuffix(".aac") == true)

        let (output, out) = try AgoraImportTests.compose(capture, in: root)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lost = try #require(report?["lostMedia"] as? [String: String])
        #expect(lost.keys.contains { $0.hasSuffix(Fixture.lin) }, "\(lost)")
        func seen(_ colour: RGBColor, at t: Double) -> Double { output.frame(at: t).map { AgoraImportTests.look(for: colour, in: $0).share } ?? 0 }
        func heard(_ hz: Double, at t: Double) -> Double { tonePower(hz, in: output.audio(from: t - 0.15, to: t + 0.15)) }
        let loud = [440.0, 660, 880].map { hz in stride(from: 0.3, to: 5.8, by: 0.25).map { heard(hz, at: $0) }.max() ?? 0 }
        // (time, Maya's colour, Maya's tone, Omar there?)
        let expectations: [(Double, RGBColor, Double, Bool)] = [
            (0.6, Colours.red, 440, false), (1.6, Colours.red, 440, false), (2.5, Colours.red, 440, true),
            (3.5, Colours.green, 660, true), (4.5, Colours.green, 660, true), (5.5, Colours.green, 660, false),
        ]
        for (t, colour, tone, omar) in expectations {
            #expect(seen(colour, at: t) > 0.03, "Maya not seen at \(t) s")
            #expect(heard(tone, at: t) > loud[[440, 660].firstIndex(of: tone)!] * 0.05, "Maya not heard at \(t) s")
            if omar {
                #expect(seen(Colours.blue, at: t) > 0.03, "Omar not seen at \(t) s")
                #expect(heard(880, at: t) > loud[2] * 0.05, "Omar not heard at \(t) s")
            } else {
                #expect(seen(Colours.blue, at: t) < 0.002, "Omar seen at \(t) s")
                #expect(heard(880, at: t) < loud[2] * 0.01, "Omar heard at \(t) s")
            }
        }
        // Sync: Maya's picture (the MP4) turns green as her tone (the separate aac) turns 660 Hz, 3 s in.
        let frames = output.frames.filter { $0.time > 2.5 && $0.time < 3.6 }
        let greenAt = try #require(frames.first { AgoraImportTests.look(for: Colours.green, in: $0.frame).share > 0.03 }?.time)
        let onset = try #require(stride(from: 2.5, to: 3.6, by: 0.005).first {
            heard(660, at: $0 + 0.15) > loud[1] * 0.1 && tonePower(660, in: output.audio(from: $0, to: $0 + 0.02)) > loud[1] * 0.02
        })
        #expect(abs(greenAt - onset) <= 1.0 / 15 + 0.020, "picture \(greenAt) s, tone \(onset) s")
        #expect(abs(greenAt - 3.0) <= 1.0 / 15 + 0.020, "green at \(greenAt) s")
    }

    /// A file the callback lists but the folder lacks is lost media, named in the warnings; the rest imports.
    @Test func aMissingFileIsLostMediaNotAnError() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try FileManager.default.removeItem(at: fixture.media.appendingPathComponent(Fixture.mayaAudio))
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "zegocloud", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(Fixture.mayaAudio) && imported.stderr.contains("not in the folder"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.track("u1001-microphone") != nil && read.track("u1001-camera") != nil)
        #expect(!FileManager.default.fileExists(atPath: capture.appendingPathComponent("media/record/\(Fixture.mayaAudio)").path))
        #expect(FileManager.default.fileExists(atPath: capture.appendingPathComponent("media/record/\(Fixture.mayaVideo)").path), "linked in place")
    }

    /// A member of the wrong type refuses the import, naming the file and the member; nothing is written.
    @Test func aMalformedDocumentExits65NamingFileAndMember() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try fixture.callback(beginValue: "true").write(to: fixture.directory.appendingPathComponent("callbacks/record_status.json"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let refused = try CLI.run(["import", "zegocloud", fixture.directory.path, "--out", capture.path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("callbacks/record_status.json") && refused.stderr.contains("$.detail.file_info[0].begin_timestamp"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }
}
