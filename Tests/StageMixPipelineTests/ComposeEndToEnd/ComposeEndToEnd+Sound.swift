import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

extension ComposeEndToEndTests {
    /// What the mix sounds like: the tones of who is on stage, and audio from other tools resampled into it.
    @Suite("Sound")
    struct Sound {
        @Test func theMixHasTheTonesOfWhoIsOnStageAndNoOthers() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8)
            defer { c.cleanup() }
            let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!, cy = c.tones["p-cy"]!
            let early = c.output.audio(from: 0.5, to: 1.5)   // Ana alone
            let later = c.output.audio(from: 3.0, to: 4.0)   // Ana and Ben
            let reference = tonePower(ana, in: early)
            #expect(reference > 1e-3, "Ana is heard")
            #expect(tonePower(ben, in: early) < reference / 100, "Ben is not heard before he is pinned")
            #expect(tonePower(ben, in: later) > reference / 10, "Ben is heard once on stage")
            #expect(tonePower(ana, in: later) > reference / 10)
            for block in [early, later] { #expect(tonePower(cy, in: block) < reference / 100, "Cy is never heard") }
            // The limiter keeps the sum in range.
            #expect(c.output.audio.allSatisfy { abs($0) <= 1.0 })
        }

        /// A microphone recorded by another tool: AAC at 44.1 kHz stereo in MP4, resampled into the mix.
        @Test func aacAt44kHzFromAnotherToolIsResampledIntoTheMix() throws {
            var anaTone = 0.0
            let c = try ComposeEndToEndTests.compose(codec: .h264) { dir, expected in
                anaTone = try #require(expected.participants.first { $0.id == "p-ana" }?.toneHz)
                let file = "media/ana-mic-aac.m4a"
                let rate = 44_100, count = rate * 8
                let tone = (0..<count).map { Float(0.3 * sin(2 * Double.pi * anaTone * Double($0) / Double(rate))) }
                let encoder = try AudioEncoder(sampleRate: rate, channels: 2, bitrate: 128_000)
                let muxer = try Muxer(url: dir.appendingPathComponent(file), format: "mp4")
                let stream = try muxer.addStream(from: encoder)
                try muxer.writeHeader()
                func drain() throws { while case .packet(let p) = try encoder.receive() { try muxer.write(p, toStream: stream) } }
                for start in stride(from: 0, to: count, by: 4410) {
                    let block = Array(tone[start..<min(count, start + 4410)])
                    try encoder.send(planar: [block, block])
                    try drain()
                }
                try encoder.sendEndOfStream()
                try drain()
                try muxer.finish()
                let manifest = dir.appendingPathComponent("session.json")
                let text = try String(contentsOf: manifest, encoding: .utf8)
                let original = try #require(expected.tracks.first { $0.id == "TR_ana_mic" }?.file)
                try text.replacingOccurrences(of: "\"\(original)\"", with: "\"\(file)\"").write(to: manifest, atomically: true, encoding: .utf8)
            }
            defer { c.cleanup() }
            #expect(c.report.lostMedia.isEmpty, "\(c.report.lostMedia)")
            let early = c.output.audio(from: 0.5, to: 1.5)
            #expect(tonePower(anaTone, in: early) > 1e-3, "Ana's 44.1 kHz AAC tone is in the 48 kHz mix")
            #expect(tonePower(anaTone * 44_100 / 48_000, in: early) < tonePower(anaTone, in: early) / 100, "at its own pitch")
        }
    }
}
