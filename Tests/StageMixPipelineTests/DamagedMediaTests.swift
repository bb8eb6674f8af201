import Foundation
import Testing
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth
import StageMixTestSupport
import StageMixStorage

/// Composes the end-to-end scenario with one file damaged, at the byte level or by the ffmpeg tool:
/// the composition finishes, and `report.json`'s `losses` say which track lost what, when, and why.
@Suite("Damaged media", .serialized)
struct DamagedMediaTests {
    typealias Composed = ComposeEndToEndTests.Composed

    static func compose(damage: @escaping (URL, ExpectedMedia) throws -> Void) throws -> Composed {
        try ComposeEndToEndTests.compose(codec: .vp8, damage: damage)
    }

    static func file(_ expected: ExpectedMedia, track: String, layer: String? = nil) throws -> String {
        let entry = try #require(expected.tracks.first { $0.id == track })
        guard let layer else { return try #require(entry.file) }
        return try #require(entry.layers?.first { $0.quality == layer }?.file)
    }

    /// Ana's microphone with the granule positions of every page past `afterSeconds` moved `by` seconds on.
    static func shiftAnaMic(_ dir: URL, _ expected: ExpectedMedia, afterSeconds: Double, by seconds: Int64) throws {
        let url = dir.appendingPathComponent(try file(expected, track: "TR_ana_mic"))
        var ogg = try OggPages(Data(contentsOf: url))
        for i in ogg.pages.indices where i >= 2 && ogg.granule(i) > Int64(afterSeconds * 48_000) {
            ogg.setGranule(i, ogg.granule(i) + seconds * 48_000)
        }
        try ogg.data.write(to: url)
    }

    @Test func aMicrophoneCutAtHalfItsLengthIsTruncatedFromTheCutToTheEnd() throws {
        let c = try Self.compose { dir, expected in
            let url = dir.appendingPathComponent(try Self.file(expected, track: "TR_ana_mic"))
            let data = try Data(contentsOf: url)
            try data.prefix(data.count / 2).write(to: url)
        }
        defer { c.cleanup() }
        let losses = c.report.losses
        let cut = try #require(losses.first { $0.trackId == "TR_ana_mic" && $0.cause == .truncated }, "\(losses)")
        // Half the bytes is about half the 8 s; the Ogg page cut through is lost whole (about a second).
        #expect((2_500...4_500).contains(cut.fromMs), "\(cut)")
        #expect(cut.toMs == 8_000, "to the end of the session: \(cut)")
        #expect(cut.layer == nil && cut.standIn == nil)
        #expect(losses.allSatisfy { $0.trackId == "TR_ana_mic" }, "nothing else lost: \(losses)")
        // And what the report says is what the mix has: Ana before the cut, not after.
        let ana = c.tones["p-ana"]!
        #expect(tonePower(ana, in: c.output.audio(from: 0.5, to: 1.5)) > 1e-3)
        #expect(tonePower(ana, in: c.output.audio(from: 5.0, to: 7.5)) < 1e-6)
    }

    @Test func anHourLongTimestampGapCostsNothingAndIsReported() throws {
        let c = try Self.compose { dir, expected in try Self.shiftAnaMic(dir, expected, afterSeconds: 4, by: 3_600) }
        defer { c.cleanup() }
        let losses = c.report.losses
        let gap = try #require(losses.first { $0.trackId == "TR_ana_mic" && $0.cause == .timestampGap }, "\(losses)")
        #expect((3_000...5_000).contains(gap.fromMs), "\(gap)")
        #expect(gap.toMs == 8_000, "\(gap)")
        #expect(!losses.contains { $0.cause == .truncated }, "the file goes on past the gap: \(losses)")
    }

    /// The reader on its own: what it holds while the session crosses a ten-hour gap.
    @Test func aReaderHoldsNoMoreThanABlockAndAPacketAcrossAGap() throws {
        let scratch = ScratchDirectory("gap")
        defer { scratch.remove() }
        let root = scratch.file("gap")
        let expected = try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario(), to: root)
        try Self.shiftAnaMic(root, expected, afterSeconds: 4, by: 36_000)
        let ledger = LossLedger()
        let file = try Self.file(expected, track: "TR_ana_mic")
        let reader = try AudioTrackReader(media: .file(root.appendingPathComponent(file)), file: file, trackId: "TR_ana_mic",
                                          startOffsetMs: 0, ledger: ledger)
        var block = [Float](repeating: 0, count: 1_600)
        var largest = 0, heard = 0
        for start in stride(from: 0, to: 8 * 48_000, by: block.count) {
            for i in block.indices { block[i] = 0 }
            try block.withUnsafeMutableBufferPointer { try reader.mix(into: $0, from: start) }
            if block.contains(where: { $0 != 0 }) { heard = start }
            largest = max(largest, reader.bufferedCapacity)
        }
        // Zero-filling the gap would hold 36,000 s x 48,000 samples; the reader holds about a packet or two.
        #expect(largest < 48_000, "held \(largest) samples")
        #expect(heard < 5 * 48_000 && heard > 3 * 48_000, "heard until the gap: \(heard)")
    }

    @Test func anOggPageThatFailsItsCRCIsReportedAsCorruptPackets() throws {
        var pageMs = 0..<0
        let c = try Self.compose { dir, expected in
            let url = dir.appendingPathComponent(try Self.file(expected, track: "TR_ana_mic"))
            var ogg = try OggPages(Data(contentsOf: url))
            // A data page in the middle of the file; its audio runs from the previous page's granule to its own.
            let index = ogg.pages.count / 2
            pageMs = Int(ogg.granule(index - 1) / 48)..<Int(ogg.granule(index) / 48)
            ogg.breakBody(index)
            try ogg.data.write(to: url)
        }
        defer { c.cleanup() }
        let losses = c.report.losses
        let corrupt = try #require(losses.first { $0.trackId == "TR_ana_mic" && $0.cause == .corruptPackets }, "\(losses)")
        #expect(corrupt.toMs - corrupt.fromMs >= 200, "\(corrupt)")
        #expect(corrupt.fromMs >= pageMs.lowerBound - 200 && corrupt.toMs <= pageMs.upperBound + 200, "\(corrupt) vs page \(pageMs)")
        #expect(!losses.contains { $0.cause == .timestampGap || $0.cause == .truncated }, "\(losses)")
    }

    @Test func aLayerClaimingAHugePictureIsRefusedAndTheNextLayerStandsIn() throws {
        let c = try Self.compose { dir, expected in
            // Written over Ana's high layer: an IVF (libavformat reads the content, not the name).
            let url = dir.appendingPathComponent(try Self.file(expected, track: "TR_ana_cam", layer: "high"))
            try FFmpegTool.vp8IVF(to: dir.appendingPathComponent("forged.ivf"), width: 64, height: 64, color: "red", seconds: 8)
            var ivf = try IVFFile(Data(contentsOf: dir.appendingPathComponent("forged.ivf")))
            ivf.claimSize(width: 16_000, height: 16_000)
            try ivf.data.write(to: url)
        }
        defer { c.cleanup() }
        let losses = c.report.losses
        let refused = try #require(losses.first { $0.trackId == "TR_ana_cam" && $0.layer == .high }, "\(losses)")
        #expect(refused.cause == .tooLarge, "\(refused)")
        #expect(refused.standIn == .medium, "\(refused)")
        #expect(refused.fromMs == 0 && refused.toMs == 2_000, "while Ana alone fills the canvas: \(refused)")
        // The medium layer stood in: Ana's colour, not the forged file's red.
        try ComposeEndToEndTests.checkTiles(c, at: 1.0)
    }

    /// Ana's high layer replaced by a 30 fps IVF in her colour, damaged by `damage`.
    static func anaHighFromFFmpeg(_ damage: @escaping (inout IVFFile) -> Void) throws -> Composed {
        try compose { dir, expected in
            let participant = try #require(expected.participants.first { $0.id == "p-ana" })
            let url = dir.appendingPathComponent(try Self.file(expected, track: "TR_ana_cam", layer: "high"))
            let made = dir.appendingPathComponent("ana-high.ivf")
            try FFmpegTool.vp8IVF(to: made, width: 1280, height: 720, color: "0x" + participant.color.dropFirst(), seconds: 8)
            var ivf = try IVFFile(Data(contentsOf: made))
            damage(&ivf)
            try ivf.data.write(to: url)
        }
    }

    @Test func aFrameWithBrokenPartitionsFreezesThePictureUntilTheNextKeyframe() throws {
        let c = try Self.anaHighFromFFmpeg { ivf in ivf.breakPartitions(45) }  // 1.5 s; keyframes every second
        defer { c.cleanup() }
        let losses = c.report.losses
        let broken = try #require(losses.first { $0.trackId == "TR_ana_cam" && $0.cause == .decodeErrors }, "\(losses)")
        #expect(broken.layer == .high)
        #expect((1_450...1_550).contains(broken.fromMs), "\(broken)")
        #expect((1_950...2_050).contains(broken.toMs), "back at the keyframe at 2 s: \(broken)")
        #expect(losses.count == 1, "\(losses)")
    }

    @Test func aLayerWithoutItsFirstKeyframeIsReportedUntilOneComes() throws {
        let c = try Self.anaHighFromFFmpeg { ivf in ivf.frames.removeFirst() }  // the next keyframe is at 1 s
        defer { c.cleanup() }
        let losses = c.report.losses
        let waiting = try #require(losses.first { $0.trackId == "TR_ana_cam" && $0.cause == .noKeyframeYet }, "\(losses)")
        #expect(waiting.layer == .high)
        #expect(waiting.fromMs == 0, "\(waiting)")
        #expect((900...1_100).contains(waiting.toMs), "\(waiting)")
        #expect(losses.count == 1, "\(losses)")
        // While waiting, another layer of Ana's camera stands in (not the placeholder); hers again from the keyframe on.
        let tile = try #require(c.plan.interval(atMs: 500)?.tiles.first)
        let (x, y) = ComposeEndToEndTests.probePoints(tile)[0]
        #expect(try #require(c.output.frame(at: 0.5)?.pixelRGB(x: x, y: y)).isClose(to: c.colors["p-ana"]!, tolerance: 24))
        #expect(try #require(c.output.frame(at: 1.5)?.pixelRGB(x: x, y: y)).isClose(to: c.colors["p-ana"]!, tolerance: 24))
        let standIn = try #require(c.report.layerStandIns.first { $0.trackId == "TR_ana_cam" }, "\(c.report.layerStandIns)")
        #expect(standIn.planned == .high && standIn.fromMs == 0 && (900...1_100).contains(standIn.toMs), "\(standIn)")
    }

    @Test func aJumpInAVideoLayersTimestampsHoldsTheLastPictureAndIsReported() throws {
        // From 1.5 s on, every frame two seconds later: nothing between 1.5 and 3.5 s.
        let c = try Self.anaHighFromFFmpeg { ivf in
            for i in ivf.frames.indices where i >= 45 { ivf.frames[i].pts += 60 }
        }
        defer { c.cleanup() }
        let losses = c.report.losses
        let gap = try #require(losses.first { $0.trackId == "TR_ana_cam" && $0.cause == .timestampGap }, "\(losses)")
        #expect(gap.layer == .high && gap.standIn == nil)
        #expect((1_450...1_550).contains(gap.fromMs), "\(gap)")
        #expect(gap.toMs == 2_000, "the high layer is planned until 2 s: \(gap)")
        #expect(losses.count == 1, "\(losses)")
    }
}
