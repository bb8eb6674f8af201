import Foundation
import Testing
import StageMixMedia
import StageMixPipeline

/// While the planned layer has no picture yet, the tile shows another layer of the track that has
/// one, not the placeholder, and the report says where and which.
@Suite("layer stand-ins", .serialized)
struct LayerStandInTests {
    @Test func aLayerThatStartsLateIsStoodInForByOneThatHasPictures() throws {
        let remade = try RemadeCapture(codec: .vp8, scenario: RemadeCapture.anaAndBen(durationMs: 3_000))
        defer { remade.cleanup() }
        let before = try remade.compose()
        let planned = try #require(try before.tile("p-ben", at: 0.5).tile.layer)
        // The planned layer, remade by the ffmpeg CLI in another colour, starts 1.5 s into the session.
        try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "color=c=0xE0E020:s=\(planned.width)x\(planned.height):r=30:d=2",
                                  "-c:v", "libvpx", "-b:v", "300k", remade.directory.appendingPathComponent(planned.file).path])
        try remade.rename("\"file\" : \"\(planned.file)\",", to: "\"file\" : \"\(planned.file)\", \"startOffsetMs\" : 1500,")

        let composed = try remade.compose()
        let benColour = try RGBColor(hex: try remade.participant("p-ben").color)
        // Before 1.5 s: another layer, in Ben's synthesized colour; after: the planned layer's yellow.
        for t in [0.2, 0.8, 1.3] {
            let got = try composed.tile("p-ben", at: t).colour
            #expect(got.isClose(to: benColour, tolerance: 24), "t=\(t): \(got)")
        }
        for t in [1.8, 2.5] {
            let got = try composed.tile("p-ben", at: t).colour
            #expect(got.isClose(to: RGBColor(r: 0xE0, g: 0xE0, b: 0x20), tolerance: 24), "t=\(t): \(got)")
        }
        let standIns = composed.report.layerStandIns
        let standIn = try #require(standIns.first { $0.trackId == "TR_ben_cam" }, "\(standIns)")
        #expect(standIn.planned == planned.quality && standIn.shown != planned.quality)
        #expect(standIn.fromMs <= 50 && abs(standIn.toMs - 1500) <= 70, "\(standIn)")
        #expect(standIns.count == 1, "\(standIns)")
        #expect(before.report.layerStandIns.isEmpty)
    }
}
