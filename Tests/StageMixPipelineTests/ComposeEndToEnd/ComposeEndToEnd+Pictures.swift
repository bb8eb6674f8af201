import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

extension ComposeEndToEndTests {
    /// What each tile shows: who the plan puts there, a held frame, an inset over a live picture, a lost layer.
    @Suite("Pictures")
    struct Pictures {
        @Test(arguments: [SynthCodec.vp8, .h264])
        func tilesShowWhoThePlanPutsThere(codec: SynthCodec) throws {
            let c = try ComposeEndToEndTests.compose(codec: codec)
            defer { c.cleanup() }
            // Alone, two side by side, Ana muted (placeholder), both again.
            #expect(c.plan.interval(atMs: 1_000)?.tiles.map(\.participantId) == ["p-ana"])
            #expect(c.plan.interval(atMs: 3_000)?.tiles.map(\.participantId) == ["p-ana", "p-ben"])
            for t in [1.0, 3.0, 5.5, 7.0] { try ComposeEndToEndTests.checkTiles(c, at: t) }
            // The background shows above and below the two 16:9 tiles.
            let frame = try #require(c.output.frame(at: 3.0))
            let background = c.plan.background
            #expect(try #require(frame.pixelRGB(x: 640, y: 40)).isClose(to: background, tolerance: 12))
        }

        @Test func aPausedStreamHoldsItsLastFrameThenShowsThePlaceholder() throws {
            var c = try ComposeEndToEndTests.compose(codec: .vp8, scenario: ComposeEndToEndTests.scenario(pauseBen: 3_000...7_500))
            defer { c.cleanup() }
            c.pausedAtMs["TR_ben_cam"] = 3_000
            // A pause is no loss: nothing was to be shown there, and its edges leave no stray stretch.
            #expect(c.report.losses.isEmpty, "\(c.report.losses)")
            let held = try #require(c.plan.interval(atMs: 4_500)?.tiles.first { $0.participantId == "p-ben" })
            #expect(held.show == .heldFrame)
            #expect(c.plan.interval(atMs: 6_500)?.tiles.first { $0.participantId == "p-ben" }?.show == .placeholder)
            for t in [4.5, 5.9, 6.5, 7.8] { try ComposeEndToEndTests.checkTiles(c, at: t) }
        }

        /// Picture in picture: Ana's live camera fills the canvas and is drawn anew every frame; Ben's inset
        /// above it holds a frame (paused from 3 s), then shows his placeholder. The inset is drawn again
        /// over each new main picture, though its own picture has not changed.
        /// The same with the inset at the main picture's z, drawn after it by file order.
        @Test(arguments: ["built-in", "same z"])
        func anInsetHoldingAFrameStaysOnTopOfALiveMainPicture(variant: String) throws {
            var layout = "pip"
            let scratch = ScratchDirectory("layout")
            defer { scratch.remove() }
            if variant == "same z" {
                var pip = try #require(Layout.builtin(named: "pip"))
                pip.regions = pip.regions.map { var r = $0; r.z = 0; return r }
                let file = scratch.file("pip-same-z.json")
                try JSONEncoder().encode(pip).write(to: file)
                layout = file.path
            }
            var c = try ComposeEndToEndTests.compose(codec: .vp8, layout: layout, scenario: ComposeEndToEndTests.scenario(pauseBen: 3_000...7_500))
            defer { c.cleanup() }
            c.pausedAtMs["TR_ben_cam"] = 3_000
            #expect(c.plan.interval(atMs: 4_500)?.tiles.map { "\($0.region) \($0.participantId) \($0.show)" }
                    == ["main p-ana video", "inset p-ben heldFrame"])
            for t in [4.5, 5.9, 6.5, 7.8] { try ComposeEndToEndTests.checkTiles(c, at: t) }
        }

        @Test func aMissingLayerFileIsReplacedByTheClosestReadableLayer() throws {
            var lostFile = ""
            let c = try ComposeEndToEndTests.compose(codec: .vp8) { dir, expected in
                // Ana alone fills the canvas from her high layer: that file is gone.
                let ana = try #require(expected.tracks.first { $0.id == "TR_ana_cam" })
                lostFile = try #require(ana.layers?.first { $0.quality == "high" }?.file)
                try FileManager.default.removeItem(at: dir.appendingPathComponent(lostFile))
            }
            defer { c.cleanup() }
            #expect(c.report.lostMedia.keys.contains { $0.contains("TR_ana_cam") || $0.contains(lostFile) }, "\(c.report.lostMedia)")
            let frame = try #require(c.output.frame(at: 1.0))
            let tile = try #require(c.plan.interval(atMs: 1_000)?.tiles.first)
            #expect(tile.layer?.quality == .high)
            for (x, y) in ComposeEndToEndTests.probePoints(tile) {
                #expect(try #require(frame.pixelRGB(x: x, y: y)).isClose(to: c.colors["p-ana"]!, tolerance: 24), "(\(x),\(y))")
            }
            #expect((c.report.decodedFrames.first { $0.key.contains("ana") && $0.key.contains("medium") }?.value ?? 0) > 180, "the medium layer stood in for 0-2 s as well")
        }
    }
}
