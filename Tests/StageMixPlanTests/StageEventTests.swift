import StageMixTestSupport
import Foundation
import Testing
import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// The stage's events, from the sample captures' timelines: what a viewer can jump to.
@Suite("Stage events")
struct StageEventTests {
    static func events(_ sample: String) throws -> [String] {
        let capture = try CaptureReader.read(directory: Repository.root.appendingPathComponent("Samples/\(sample)"))
        let timeline = try StageTimeline(capture: capture, pauseGraceMs: StageTimeline.defaultPauseGraceMs)
        return StageEvent.of(timeline).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" }
    }

    @Test func joinsInvitationsAndLeaves() throws {
        // Omar accepts Maya's invitation at 4 s, comes on stage at 4.5 s when pinned, is forced to the
        // viewer role (which may not publish) from 21 to 24 s, and leaves at 27 s; Lena's declined and
        // Kai's expired invitations are not events.
        #expect(try Self.events("panel") == [
            "0 joined-stage p-maya", "4000 invitation-accepted p-omar", "4500 joined-stage p-omar",
            "21000 left-stage p-omar", "24000 joined-stage p-omar", "27000 left-stage p-omar",
        ])
    }

    /// A forced move off the stage is marked with its reason, in the events (chapters, DATERANGE) and in
    /// the plan's text; an ordinary leave has none.
    @Test func aForcedMoveOffTheStageSaysWhy() throws {
        let capture = try CaptureReader.read(directory: Repository.root.appendingPathComponent("Samples/panel"))
        let events = StageEvent.of(try StageTimeline(capture: capture)).filter { $0.kind == .leftStage }
        #expect(events.map(\.title) == ["Omar left the stage (role viewer may not publish)", "Omar left the stage"])
        let text = PlanTextReport.render(try PlanDocument(capture: capture, layout: .builtin(named: "grid")!))
        #expect(text.contains("Omar[] (not shown: role viewer may not publish)"), "\(text)")
    }

    /// Omar left out 0-10 s by an edit: neither his invitation's acceptance at 4 s nor his join is
    /// marked; he comes on stage at 10 s.
    @Test func someoneLeftOutIsNotNamed() throws {
        let capture = try CaptureReader.read(directory: Repository.root.appendingPathComponent("Samples/panel"))
        let edits = SessionEdits(exclude: [.init(participantId: "p-omar", spans: [.init(fromMs: 0, toMs: 10_000)])])
        let timeline = try StageTimeline(capture: capture, edits: edits)
        #expect(StageEvent.of(timeline).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" } == [
            "0 joined-stage p-maya", "10000 joined-stage p-omar", "21000 left-stage p-omar", "24000 joined-stage p-omar",
            "27000 left-stage p-omar",
        ])
    }

    @Test func screenSharesStartAndStop() throws {
        #expect(try Self.events("screenshare") == [
            "0 joined-stage p-maya", "0 joined-stage p-ben", "5000 screen-share-started p-maya", "15000 screen-share-stopped p-maya",
        ])
    }

    /// Four people leave at one instant: their events come in stage order, the same in every run
    /// (the ids and chapter titles written from them must not change between runs of one capture).
    @Test func simultaneousLeavesComeInStageOrder() {
        var c = TestCapture()
        let ids = ["ana", "ben", "cy", "dee"]
        for (k, id) in ids.enumerated() {
            c.person(id)
            c.onStage(id, at: k * 100)
        }
        for id in ids.reversed() { c.at(5_000, .participantLeft(participantId: id)) }
        let timeline = c.timeline(endingAt: 10_000)
        let order = timeline.segment(atMs: 4_000)?.onStage.map(\.participantId) ?? []
        #expect(order.count == 4)
        let leaves = StageEvent.of(timeline).filter { $0.kind == .leftStage }
        #expect(leaves.map(\.participantId) == order)
        #expect(leaves.allSatisfy { $0.atMs == 5_000 })
    }

    @Test func titlesNameThePersonAndWhatHappened() {
        #expect(StageEvent(atMs: 0, kind: .screenShareStarted, participantId: "p", name: "Zoë").title == "Zoë started sharing their screen")
        #expect(StageEvent(atMs: 0, kind: .leftStage, participantId: "p", name: "Omar").title == "Omar left the stage")
    }
}
