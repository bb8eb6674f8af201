import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

extension ComposeEndToEndTests {
    /// What composing costs: only what is shown is decoded, and the CPU report says where the time went.
    @Suite("Work")
    struct Work {
        @Test func decodesOnlyWhatIsShownAtTheLayerThatFits() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8)
            defer { c.cleanup() }
            let decoded = c.report.decodedFrames
            // Cy is never on stage: none of Cy's files is even opened.
            #expect(!decoded.keys.contains { $0.contains("cy") }, "\(decoded)")
            // Ana fills the canvas alone for 2 s (high layer), then shares it (medium layer from the next keyframe).
            let high = decoded.first { $0.key.contains("ana") && $0.key.contains("high") }?.value ?? 0
            let medium = decoded.first { $0.key.contains("ana") && $0.key.contains("medium") }?.value ?? 0
            #expect((55...92).contains(high), "high layer frames: \(high)")
            // 2-5 s, then muted (decoder closed) until 6.5 s, reopened at the 6 s keyframe: about 150.
            #expect((140...160).contains(medium), "medium layer frames: \(medium)")
            #expect(!decoded.keys.contains { $0.contains("low") }, "no tile is small enough for a low layer: \(decoded)")
            #expect(!decoded.keys.contains { $0.contains("ben") && $0.contains("high") })
        }

        @Test func reportsWhereTheCPUWent() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8)
            defer { c.cleanup() }
            let cpu = c.report.cpuSeconds
            // The decoding thread did real work (8 s of VP8 and Opus), and it is part of, not all of, the total.
            #expect(cpu.decodeThread > 0.01, "\(cpu)")
            #expect(abs(cpu.decodeThread + cpu.encodeMux + cpu.loudnessPass - cpu.total) < 0.002, "\(cpu)")
            // The loudness pass decoded both microphones once more: a real cost, small next to the rest.
            #expect(cpu.loudnessPass > 0 && cpu.loudnessPass < cpu.encodeMux, "\(cpu)")
            // x264 and AAC cost more than decoding these small layers.
            #expect(cpu.encodeMux > cpu.decodeThread, "\(cpu)")
            // Each stage was charged, and together they are nearly all of the thread (the rest is its loop).
            #expect(cpu.videoDecode > 0 && cpu.videoCompose > 0 && cpu.audioDecodeMix > 0, "\(cpu)")
            let stages = cpu.videoDecode + cpu.videoCompose + cpu.audioDecodeMix
            #expect(stages <= cpu.decodeThread + 0.002 && stages > cpu.decodeThread * 0.8, "\(cpu)")
        }
    }
}
