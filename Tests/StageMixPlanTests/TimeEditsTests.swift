import StageMixTestSupport
import Foundation
import Testing
import StageMixJSON
import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// `trim` and `cut`: time taken out of the output, with the timeline, the plan, the billing and the
/// stream's events moved onto the output's clock, and the media still read where it was recorded.
@Suite("Trim and cut")
struct TimeEditsTests {
    static func parse(_ text: String, sessionMs: Int = 60_000) throws(EditsError) -> SessionEdits {
        try SessionEdits.parse(try! JSONTextParser.parse(Array(text.utf8)), file: "edits.json", participants: ["ana", "ben"],
                               sessionDurationMs: sessionMs)
    }

    static func problems(_ text: String) -> [String] {
        do { _ = try parse(text); return [] } catch { return error.problems.map { "\($0.path): \($0.expected)" } }
    }

    @Test func trimAndCutAreReadStrictly() throws {
        #expect(try Self.parse(#"{"trim": {"start": 2.5, "end": 50}, "cut": [{"from": 10, "to": 12.25}]}"#)
                == SessionEdits(trim: .init(startMs: 2_500, endMs: 50_000), cut: [.init(fromMs: 10_000, toMs: 12_250)]))
        #expect(try Self.parse(#"{"trim": {"end": 50}}"#).trim == .init(startMs: nil, endMs: 50_000))
        #expect(try Self.parse(#"{"cut": []}"#) == .none, "an empty cut list cuts nothing")
        #expect(Self.problems(#"{"trim": {}}"#) == [#"$.trim: "start", "end" or both"#])
        #expect(Self.problems(#"{"trim": {"start": 5, "end": 5}}"#) == [#"$.trim.end: a time after "start" (5.0 s)"#])
        #expect(Self.problems(#"{"trim": {"start": 60}}"#) == ["$.trim.start: a time before the session's end (60.0 s)"])
        #expect(Self.problems(#"{"trim": {"begin": 1}}"#).first?.hasPrefix("$.trim.begin:") == true)
        #expect(Self.problems(#"{"cut": [{"from": 3, "to": 2}]}"#) == [#"$.cut[0].to: a time after "from" (3.0 s)"#])
        #expect(Self.problems(#"{"cut": [{"from": 0, "to": 30}, {"from": 29, "to": 90}]}"#)
                == ["$.cut: edits that keep some of the session (60.0 s)"], "nothing left to compose")
        #expect(Self.problems(#"{"trim": {"start": 10}, "cut": [{"from": 9, "to": 61}]}"#).count == 1)
    }

    /// A 60 s session, the first 5 s trimmed, 20-30 s cut, everything after 55 s trimmed: 35 s of output.
    @Test func theOutputClockLaysTheKeptStretchesEndToEnd() {
        let edits = SessionEdits(trim: .init(startMs: 5_000, endMs: 55_000), cut: [.init(fromMs: 20_000, toMs: 30_000)])
        let clock = OutputClock(edits: edits, sessionDurationMs: 60_000)
        #expect(clock.pieces.map { [$0.sessionFromMs, $0.sessionToMs, $0.outputFromMs] } == [[5_000, 20_000, 0], [30_000, 55_000, 15_000]])
        #expect(clock.durationMs == 40_000)
        #expect(clock.outputMs(sessionMs: 4_999) == nil)
        #expect(clock.outputMs(sessionMs: 5_000) == 0)
        #expect(clock.outputMs(sessionMs: 19_999) == 14_999)
        #expect(clock.outputMs(sessionMs: 25_000) == nil)
        #expect(clock.outputMs(sessionMs: 30_000) == 15_000)
        #expect(clock.outputMs(sessionMs: 55_000) == nil)
        #expect(clock.outputMs(resumingAt: 25_000) == 15_000, "a cut instant goes to where the output resumes")
        #expect(clock.outputMs(resumingAt: 1_000) == 0)
        #expect(clock.outputMs(resumingAt: 58_000) == 40_000)
        #expect(clock.sessionMs(outputMs: 14_999) == 19_999)
        #expect(clock.sessionMs(outputMs: 15_000) == 30_000)
        #expect(OutputClock(edits: .none, sessionDurationMs: 60_000).isIdentity)
        // Overlapping and touching cuts merge; a cut past the end stops there.
        let merged = OutputClock(edits: SessionEdits(cut: [.init(fromMs: 10_000, toMs: 20_000), .init(fromMs: 15_000, toMs: 25_000),
                                                           .init(fromMs: 25_000, toMs: 26_000), .init(fromMs: 50_000, toMs: 90_000)]),
                                 sessionDurationMs: 60_000)
        #expect(merged.pieces.map { [$0.sessionFromMs, $0.sessionToMs, $0.outputFromMs] } == [[0, 10_000, 0], [26_000, 50_000, 10_000]])
    }

    /// Ana on stage throughout, Ben joins at 25 s (inside the cut) and leaves at 40 s; Ana mutes her
    /// camera at 45 s. Cut 20-30 s: the output lasts 50 s, Ben appears at 20 s (where the output
    /// resumes) and leaves at 30 s, Ana's camera mutes at 35 s, and the plan reads the session 10 s on.
    @Test func theTimelinePlanBillingAndEventsFollowACut() throws {
        var c = TestCapture()
        c.person("ana")
        c.person("ben")
        c.onStage("ana", at: 0)
        c.onStage("ben", at: 25_000)
        c.at(40_000, .participantLeft(participantId: "ben"))
        c.at(45_000, .trackMuted(trackId: "ana-cam"))
        let capture = c.capture(endingAt: 60_000)
        let edits = SessionEdits(cut: [.init(fromMs: 20_000, toMs: 30_000)])
        let timeline = try StageTimeline(capture: capture, edits: edits)
        #expect(timeline.durationMs == 50_000)
        #expect(timeline.segments.first?.startMs == 0 && timeline.segments.last?.endMs == 50_000)
        #expect(zip(timeline.segments, timeline.segments.dropFirst()).allSatisfy { $0.endMs == $1.startMs }, "contiguous")
        #expect(timeline.onStage(at: 19_999) == ["ana"])
        #expect(timeline.onStage(at: 20_000) == ["ana", "ben"])
        #expect(timeline.onStage(at: 30_000) == ["ana"])
        #expect(timeline.subscribed(at: 34_999)["ana-cam"] == .flowing)
        #expect(timeline.subscribed(at: 35_000)["ana-cam"] == .muted)
        #expect(timeline.segment(atMs: 10_000)?.sessionOffsetMs == nil)
        #expect(timeline.segment(atMs: 20_000)?.sessionOffsetMs == 10_000)
        #expect(timeline.output?.durationMs == 50_000)
        #expect(StageEvent.of(timeline).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" }
                == ["0 joined-stage ana", "20000 joined-stage ben", "30000 left-stage ben"])

        let plan = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"), edits: edits)
        #expect(plan.plan.durationMs == 50_000)
        #expect(plan.plan.intervals.last?.endMs == 50_000)
        // Ana alone before and after the cut: two intervals, since the second reads the session 10 s on.
        #expect(plan.plan.interval(atMs: 19_999)?.sessionOffsetMs == nil)
        #expect(plan.plan.interval(atMs: 40_000)?.sessionOffsetMs == 10_000)
        #expect(plan.plan.interval(atMs: 40_000)?.sessionMs(40_000) == 50_000)
        #expect(plan.plan.startedAt == capture.startedAt)
        // Billing counts the output: 50 s of Ana (35 s flowing), 10 s of Ben.
        #expect(plan.billing.tracks.first { $0.trackId == "ana-cam" }?.subscribedSeconds == 50)
        #expect(plan.billing.tracks.first { $0.trackId == "ben-cam" }?.subscribedSeconds == 10)
        #expect(plan.billing.durationMs == 50_000)

        // A trim moves the output's start: its first instant is 5 s into the session.
        let trimmed = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"),
                                       edits: SessionEdits(trim: .init(startMs: 5_000)))
        #expect(trimmed.plan.startedAt == capture.startedAt.addingTimeInterval(5))
        #expect(trimmed.plan.durationMs == 55_000)
        #expect(trimmed.timeline.onStage(at: 20_000) == ["ana", "ben"], "Ben's join at 25 s is at 20 s of the output")
    }

    /// Omar accepts Maya's invitation at 4 s of the panel sample and is on stage from 4.5 s. With 3-6 s
    /// cut, the acceptance was cut (no event; the timeline says so) and he is on stage from 3 s.
    @Test func anInvitationAnsweredInACutIsNotMarked() throws {
        let capture = try CaptureReader.read(directory: Repository.root.appendingPathComponent("Samples/panel"))
        let timeline = try StageTimeline(capture: capture, edits: SessionEdits(cut: [.init(fromMs: 3_000, toMs: 6_000)]))
        #expect(StageEvent.of(timeline).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" } == [
            // His forced move to viewer, 21-24 s of the session, is 18-21 s of the output.
            "0 joined-stage p-maya", "3000 joined-stage p-omar", "18000 left-stage p-omar", "21000 joined-stage p-omar",
            "24000 left-stage p-omar",
        ])
        let omar = try #require(timeline.invitations.first { $0.receiverId == "p-omar" && $0.outcome == .accepted })
        #expect(omar.resolvedInCut == true)
        #expect(omar.resolvedAtMs == 3_000)
        // Cut elsewhere, the acceptance moves with the output: at 4 s - 1 s.
        let early = try StageTimeline(capture: capture, edits: SessionEdits(cut: [.init(fromMs: 1_000, toMs: 2_000)]))
        #expect(StageEvent.of(early).contains { $0.atMs == 3_000 && $0.kind == .invitationAccepted })
    }
}
