import Foundation
import Testing
import StageMixJSON
import StageMixLayout
@testable import StageMixPlan

/// `--edits`: the edit file read strictly, and its effect on the stage timeline, the plan and billing.
@Suite("Session edits")
struct SessionEditsTests {
    static func parse(_ text: String) throws(EditsError) -> SessionEdits {
        try SessionEdits.parse(try! JSONTextParser.parse(Array(text.utf8)), file: "edits.json", participants: ["ana", "ben"])
    }

    static func problems(_ text: String) -> [String] {
        do { _ = try parse(text); return [] } catch { return error.problems.map { "\($0.path): \($0.expected)" } }
    }

    @Test func theFileIsReadStrictly() throws {
        let edits = try Self.parse(#"{"exclude": [{"participant": "ben"}, {"participant": "ana", "ranges": [{"from": 1.5, "to": 2}]}], "mute": [{"from": 0, "to": 0.25}]}"#)
        #expect(edits == SessionEdits(exclude: [.init(participantId: "ben"), .init(participantId: "ana", spans: [.init(fromMs: 1_500, toMs: 2_000)])],
                                      mute: [.init(span: .init(fromMs: 0, toMs: 250))]))
        #expect(try Self.parse("{}") == .none)
        #expect(Self.problems(#"{"exclude": [{"participant": "cy"}]}"#) == ["$.exclude[0].participant: the id of a participant of the capture"])
        #expect(Self.problems(#"{"exclude": [{"participant": "ben", "range": []}]}"#).first?.hasPrefix("$.exclude[0].range:") == true)
        #expect(Self.problems(#"{"mute": [{"from": 5, "to": 5}]}"#) == [#"$.mute[0].to: a time after "from" (5.0 s)"#])
        #expect(Self.problems(#"{"mute": [{"from": -1, "to": 1e300}]}"#).count == 2)
        #expect(Self.problems(#"{"split": []}"#).first?.hasPrefix("$.split:") == true)
        #expect(Self.problems(#"{"exclude": [{"participant": "ben", "ranges": []}]}"#).first?.hasPrefix("$.exclude[0].ranges: at least one range") == true,
                "an empty list would leave nobody out")
        #expect(Self.problems(#"[]"#) == [#"$: an object {"exclude": [...], "mute": [...], "trim": {...}, "cut": [...]}"#])
    }

    /// A camera paused while its owner was left out holds a frame taken then: when they come back
    /// it shows the placeholder, not that frame. Paused before the exclusion, it holds as usual.
    @Test func aFrameHeldFromInsideAnExclusionIsNotShown() {
        var c = TestCapture()
        c.person("ana")
        c.person("ben")
        c.onStage("ana", at: 0)
        c.onStage("ben", at: 0)
        c.at(39_000, .streamState(trackId: "ben-cam", state: .paused))
        c.at(50_000, .streamState(trackId: "ana-cam", state: .paused))
        let edits = SessionEdits(exclude: [.init(participantId: "ben", spans: [.init(fromMs: 20_000, toMs: 40_000)]),
                                           .init(participantId: "ana", spans: [.init(fromMs: 51_000, toMs: 52_000)])])
        let timeline = c.timeline(endingAt: 60_000, graceMs: 5_000)
        #expect(timeline.subscribed(at: 40_500)["ben-cam"] == .pausedHolding, "unedited: the frame from 39 s is held")
        let edited = try! StageTimeline(capture: c.capture(endingAt: 60_000), pauseGraceMs: 5_000, edits: edits)
        #expect(edited.subscribed(at: 40_500)["ben-cam"] == .paused)
        // Ana paused at 50 s, before any exclusion of hers: her frame is held as usual.
        #expect(edited.subscribed(at: 50_500)["ana-cam"] == .pausedHolding)
        #expect(edited.onStage(at: 51_500) == ["ben"])
    }

    @Test func leftOutParticipantsLeaveTheStageAndTheBilling() throws {
        var c = TestCapture()
        c.person("ana")
        c.person("ben")
        c.onStage("ana", at: 0)
        c.onStage("ben", at: 0)
        let capture = c.capture(endingAt: 60_000)
        let edits = SessionEdits(exclude: [.init(participantId: "ben", spans: [.init(fromMs: 20_000, toMs: 40_000)])],
                                 mute: [.init(participantId: "ana", span: .init(fromMs: 5_000, toMs: 6_000))])
        let timeline = try! StageTimeline(capture: capture, edits: edits)
        #expect(timeline.onStage(at: 19_999) == ["ana", "ben"])
        #expect(timeline.onStage(at: 20_000) == ["ana"])
        #expect(timeline.onStage(at: 40_000) == ["ana", "ben"])
        #expect(timeline.subscribed(at: 5_500)["ana-mic"] == .muted)
        #expect(timeline.subscribed(at: 5_500)["ana-cam"] == .flowing)
        #expect(timeline.subscribed(at: 5_500)["ben-mic"] == .flowing)
        #expect(timeline.subscribed(at: 6_000)["ana-mic"] == .flowing)
        #expect(timeline.edits == edits)
        #expect(try! StageTimeline(capture: capture).edits == nil)
        // The stream's events follow: Ben leaves at 20 s and comes back at 40 s.
        #expect(StageEvent.of(timeline).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" }
                == ["0 joined-stage ana", "0 joined-stage ben", "20000 left-stage ben", "40000 joined-stage ben"])

        // Billing follows the edited plan: while Ben is left out Ana fills the canvas alone and is
        // subscribed at her high layer (1280x720) instead of two medium ones (640x360 each).
        let layout = try Layout.resolve("grid")
        let edited = try PlanDocument(capture: capture, layout: layout, edits: edits)
        #expect(edited.plan.interval(atMs: 30_000)?.tiles.map(\.participantId) == ["ana"])
        let at30 = edited.billing.spans.first { $0.startMs <= 30_000 && 30_000 < $0.endMs }
        let at10 = edited.billing.spans.first { $0.startMs <= 10_000 && 10_000 < $0.endMs }
        #expect(at30?.aggregatePixels == 1280 * 720)
        #expect(at10?.aggregatePixels == 2 * 640 * 360)
        #expect(edited.billing.tracks.first { $0.trackId == "ben-cam" }?.subscribedSeconds == 40)
        // Left out for the whole session: never on stage, never named.
        let gone = try! StageTimeline(capture: capture, edits: SessionEdits(exclude: [.init(participantId: "ben")]))
        #expect(gone.segments.allSatisfy { !$0.onStage.contains { $0.participantId == "ben" } })
        #expect(!StageEvent.of(gone).contains { $0.participantId == "ben" })
    }
}
