import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

extension ComposeEndToEndTests {
    /// Edits after the session: participants left out, microphones muted, time trimmed and cut.
    @Suite("Edits")
    struct Edits {
        /// `--edits`: Ben left out from 3 s to the end, Ana's microphone muted from 0.5 to 1.5 s. After
        /// 3 s Ana fills the grid alone, Ben's colour is nowhere and his tone is not heard; Ana is silent
        /// while muted; the output keeps its length and timeline.json says what was edited.
        @Test func anExcludedParticipantIsNeitherSeenNorHeard() throws {
            let edits = SessionEdits(exclude: [.init(participantId: "p-ben", spans: [.init(fromMs: 3_000, toMs: 8_000)])],
                                     mute: [.init(participantId: "p-ana", span: .init(fromMs: 500, toMs: 1_500))])
            let c = try ComposeEndToEndTests.compose(codec: .vp8, edits: edits)
            defer { c.cleanup() }
            #expect(c.plan.interval(atMs: 2_500)?.tiles.count == 2)
            #expect(c.plan.interval(atMs: 4_000)?.tiles.map(\.participantId) == ["p-ana"])
            #expect(c.plan.interval(atMs: 4_000)?.tiles.first?.rect.width == c.plan.canvas.width, "the grid reflows to Ana alone")
            // checkTiles also scans the whole frame for the colour of everyone not shown.
            for t in [2.5, 3.5, 5.8, 7.5] { try ComposeEndToEndTests.checkTiles(c, at: t) }
            let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!
            let reference = tonePower(ana, in: c.output.audio(from: 2.1, to: 2.9))
            #expect(reference > 1e-3)
            #expect(tonePower(ben, in: c.output.audio(from: 2.1, to: 2.9)) > reference / 10, "Ben is heard before he is left out")
            #expect(tonePower(ben, in: c.output.audio(from: 3.1, to: 7.9)) < reference / 100, "Ben is never heard after 3 s")
            #expect(tonePower(ana, in: c.output.audio(from: 0.6, to: 1.4)) < reference / 100, "Ana is muted 0.5-1.5 s")
            #expect(tonePower(ana, in: c.output.audio(from: 3.1, to: 7.9)) > reference / 10)
            #expect(c.output.frames.count == 8 * 30)
            let timeline = try String(contentsOf: c.root.appendingPathComponent("out/timeline.json"), encoding: .utf8)
            #expect(timeline.contains("\"edits\""), "timeline.json says what was edited")
        }

        /// `trim` and `cut`: session 1-3 s cut and everything after 7.5 s trimmed leave 5.5 s of output,
        /// session 0-1 s then 3-7.5 s. Ben, pinned at 2 s (in the cut), is on stage from 1 s of the
        /// output; each tile's marker shows the session's time, not the output's; Ana's microphone muted
        /// at 4-5 s of the session is silent at 2-3 s of the output; billing and the stream's events count
        /// the output's time.
        @Test func cutTimeIsGoneAndWhatIsKeptPlaysAsRecorded() throws {
            let edits = SessionEdits(mute: [.init(participantId: "p-ana", span: .init(fromMs: 4_000, toMs: 5_000))],
                                     trim: .init(endMs: 7_500), cut: [.init(fromMs: 1_000, toMs: 3_000)])
            let c = try ComposeEndToEndTests.compose(codec: .vp8, edits: edits)
            defer { c.cleanup() }
            #expect(c.output.frames.count == 165, "5.5 s at 30 fps: the session less exactly what was taken out")
            #expect(abs(Double(c.output.audio.count) / 48_000 - 5.5) < 1.0 / 30)
            #expect(c.output.segments.map(\.duration) == [2, 2, 1.5])
            #expect(c.plan.interval(atMs: 1_000)?.tiles.map(\.participantId) == ["p-ana", "p-ben"])
            #expect(c.plan.interval(atMs: 1_000)?.sessionOffsetMs == 2_000)
            // Session 0.5, 3.5, 5.5 (Ana's camera muted) and 7.2 s.
            for t in [0.5, 1.5, 3.5, 5.2] { try ComposeEndToEndTests.checkTiles(c, at: t) }
            let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!
            let reference = tonePower(ana, in: c.output.audio(from: 1.1, to: 1.9))
            #expect(reference > 1e-3)
            #expect(tonePower(ben, in: c.output.audio(from: 0.1, to: 0.9)) < reference / 100, "Ben is not on stage before the cut")
            #expect(tonePower(ben, in: c.output.audio(from: 1.1, to: 1.9)) > reference / 10, "Ben is heard right after it")
            #expect(tonePower(ana, in: c.output.audio(from: 2.1, to: 2.9)) < reference / 100, "Ana's mute follows the session's clock")
            #expect(tonePower(ana, in: c.output.audio(from: 3.1, to: 3.9)) > reference / 10)
            let billing = try String(contentsOf: c.root.appendingPathComponent("out/billing.json"), encoding: .utf8)
            #expect(billing.contains("\"durationMs\" : 5500"), "billing counts the output")
            // Ben's join is marked where the output resumes, on the output's clock (18:00:01).
            #expect(c.output.playlist.contains("X-EVENT=\"joined-stage\"") && c.output.playlist.contains("START-DATE=\"2026-11-20T18:00:01.000Z\""),
                    "\(c.output.playlist)")
            let timeline = try String(contentsOf: c.root.appendingPathComponent("out/timeline.json"), encoding: .utf8)
            #expect(timeline.contains("\"cut\"") && timeline.contains("\"output\""), "timeline.json says what was taken out and where the rest went")
        }
    }
}
