import Foundation
import Testing
import StageMixMedia
import StageMixPipeline

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
        let remade = try RemadeCapture(codec: .vp8, scenario: RemadeCapture.anaAndBen(durationMs: 3_000))
        defer { remade.cleanup() }
        let colours = ["p-ana": RGBColor(r: 0xC8, g: 0x30, b: 0x20), "p-ben": RGBColor(r: 0x20, g: 0x90, b: 0x40)]
        let tones = Dictionary(uniqueKeysWithValues: remade.expected.participants.compactMap { p in p.toneHz.map { (p.id, $0) } })
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
        for remake in remakes {
            let track = try remade.track(remake.track)
            let files: [(file: String, width: Int, height: Int)] = track.layers?.map { ($0.file, $0.width, $0.height) } ?? [(track.file ?? "", 0, 0)]
            for (file, width, height) in files {
                let renamed = (file as NSString).deletingPathExtension + "." + remake.extensionName
                let input = remake.input.replacingOccurrences(of: "{W}", with: "\(width)").replacingOccurrences(of: "{H}", with: "\(height)")
                try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", input] + remake.arguments + [remade.directory.appendingPathComponent(renamed).path])
                try FileManager.default.removeItem(at: remade.directory.appendingPathComponent(file))
                try remade.rename(file, to: renamed)
            }
        }
        let composed = try remade.compose()
        #expect(composed.report.lostMedia.isEmpty, "\(composed.report.lostMedia)")
        for t in [0.5, 1.5, 2.5] {
            for id in ["p-ana", "p-ben"] {
                let got = try composed.tile(id, at: t).colour
                #expect(got.isClose(to: colours[id]!, tolerance: 12), "t=\(t) \(id): \(got), want \(colours[id]!)")
            }
        }
        let block = composed.output.audio(from: 1.0, to: 2.0)
        let ana = tonePower(tones["p-ana"]!, in: block), ben = tonePower(tones["p-ben"]!, in: block)
        #expect(ana > 1e-4 && ben > 1e-4, "both voices heard: \(ana), \(ben)")
        #expect(abs(10 * log10(ana / ben)) < 3, "at the same level after normalisation: \(ana) vs \(ben)")
    }
}
