import Foundation
import Testing
import StageMixMedia
import StageMixPipeline

/// A participant pinned mid-GOP shows the picture at or before the pin, decoded forward from the
/// keyframe before it, even from MPEG-TS (whose backward seek lands on the next keyframe) with
/// B-frames and timestamps starting at 10 s, as the ffmpeg CLI writes it.
@Suite("subscription start", .serialized)
struct SubscriptionStartTests {
    @Test func aTileShowsItsPictureFromThePinOnFromMPEGTSWithBFrames() throws {
        let remade = try RemadeCapture(codec: .h264, scenario: RemadeCapture.anaAndBen(durationMs: 4_000, benPinnedAtMs: 1_100))
        defer { remade.cleanup() }
        for layer in try remade.track("TR_ben_cam").layers ?? [] {
            // One keyframe a second, three B-frames, timestamps from 10 s, in MPEG-TS.
            let ts = layer.file.replacingOccurrences(of: ".mp4", with: ".ts")
            try RemadeCapture.ffmpeg([
                "-f", "lavfi", "-i", "color=c=0x2080C0:s=\(layer.width)x\(layer.height):r=30:d=4",
                "-c:v", "libx264", "-bf", "3", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                "-colorspace", "bt709", "-output_ts_offset", "10", "-f", "mpegts", remade.directory.appendingPathComponent(ts).path])
            try FileManager.default.removeItem(at: remade.directory.appendingPathComponent(layer.file))
            try remade.rename(layer.file, to: ts)
        }
        let composed = try remade.compose()
        let want = RGBColor(r: 0x20, g: 0x80, b: 0xC0)
        for t in [1.15, 1.5, 1.9, 2.5] {
            let (tile, got) = try composed.tile("p-ben", at: t)
            #expect(tile.show == .video)
            #expect(got.isClose(to: want, tolerance: 12), "t=\(t): Ben's tile is \(got), not his picture")
        }
    }
}
