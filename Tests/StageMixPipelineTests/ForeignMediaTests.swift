import Foundation
import Testing
import StageMixCore
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// A capture whose every file the ffmpeg CLI wrote, in the forms real SFUs and phones record: AV1,
/// VP8 in IVF, a 5 fps variable-rate H.264, AAC at 44.1 kHz mono, Opus in Matroska. Each tile shows
/// its participant and each voice is heard.
@Suite("media made by other tools", .serialized)
struct ForeignMediaTests {
    struct Remake {
        var track: String
        var extensionName: String
        /// ffmpeg arguments after the input, before the output path; `{W}`x`{H}` for the layer size.
        var input: String
        var arguments: [String]
    }

    @Test func everyTrackInAnotherFormat() throws {
        MediaLog.setLevel(.error)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-foreign-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: .vp8).synthesize(LoudnessTests.scenario().withDuration(3_000), to: captureDir)
        let colours = ["p-ana": RGBColor(r: 0xC8, g: 0x30, b: 0x20), "p-ben": RGBColor(r: 0x20, g: 0x90, b: 0x40)]
        let tones = Dictionary(uniqueKeysWithValues: expected.participants.compactMap { p in p.toneHz.map { (p.id, $0) } })
        let remakes = [
            Remake(track: "TR_ana_cam", extensionName: "mkv", input: "color=c=0xC83020:s={W}x{H}:r=30:d=3",
                   arguments: ["-c:v", "libsvtav1", "-preset", "12", "-g", "30", "-pix_fmt", "yuv420p"]),
            Remake(track: "TR_ben_cam", extensionName: "ivf", input: "color=c=0x209040:s={W}x{H}:r=30:d=3",
                   arguments: ["-c:v", "libvpx", "-b:v", "400k", "-g", "30"]),
            Remake(track: "TR_ana_mic", extensionName: "m4a", input: "sine=frequency=\(tones["p-ana"]!):sample_rate=44100:duration=3",
                   arguments: ["-ac", "1", "-c:a", "aac", "-b:a", "96k"]),
            Remake(track: "TR_ben_mic", extensionName: "mka", input: "sine=frequency=\(tones["p-ben"]!):sample_rate=48000:duration=3",
                   arguments: ["-ac", "1", "-c:a", "libopus", "-b:a", "48k"]),
        ]
        var manifest = try String(contentsOf: captureDir.appendingPathComponent("session.json"), encoding: .utf8)
        for remake in remakes {
            let track = try #require(expected.tracks.first { $0.id == remake.track })
            let files: [(file: String, width: Int, height: Int)] = track.layers?.map { ($0.file, $0.width, $0.height) } ?? [(track.file ?? "", 0, 0)]
            for (file, width, height) in files {
                let renamed = (file as NSString).deletingPathExtension + "." + remake.extensionName
                let input = remake.input.replacingOccurrences(of: "{W}", with: "\(width)").replacingOccurrences(of: "{H}", with: "\(height)")
                _ = try SourceColourTests.ffmpeg(["-f", "lavfi", "-i", input] + remake.arguments + [captureDir.appendingPathComponent(renamed).path])
                try FileManager.default.removeItem(at: captureDir.appendingPathComponent(file))
                manifest = manifest.replacingOccurrences(of: file, with: renamed)
            }
        }
        try manifest.write(to: captureDir.appendingPathComponent("session.json"), atomically: true, encoding: .utf8)

        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        let report = try CompositionJob(capture: capture, document: doc, settings: ComposeSettings(preset: "ultrafast")).run(out: out)
        #expect(report.lostMedia.isEmpty, "\(report.lostMedia)")
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        for t in [0.5, 1.5, 2.5] {
            let frame = try #require(output.frame(at: t))
            for tile in try #require(doc.plan.interval(atMs: Int(t * 1000))).tiles {
                let want = try #require(colours[tile.participantId])
                let got = try #require(frame.pixelRGB(x: tile.rect.x + tile.rect.width / 2, y: tile.rect.y + tile.rect.height * 3 / 4))
                #expect(got.isClose(to: want, tolerance: 12), "t=\(t) \(tile.participantId): \(got), want \(want)")
            }
        }
        let block = output.audio(from: 1.0, to: 2.0)
        let ana = tonePower(tones["p-ana"]!, in: block), ben = tonePower(tones["p-ben"]!, in: block)
        #expect(ana > 1e-4 && ben > 1e-4, "both voices heard: \(ana), \(ben)")
        #expect(abs(10 * log10(ana / ben)) < 3, "at the same level after normalisation: \(ana) vs \(ben)")
    }
}
