import Foundation
import Testing
import StageMixLayout
@testable import StageMixPlan

@Suite("Plan labels")
struct PlanLabelTests {
    func plan(_ c: TestCapture, layout: Layout) -> CompositionPlan {
        let capture = c.capture(endingAt: 10_000)
        return CompositionPlan(capture: capture, timeline: try! StageTimeline(capture: capture), layout: layout)
    }

    func twoOnStage(screen: Bool = false) -> TestCapture {
        var c = TestCapture(); c.person("maya", screen: screen); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        if screen { c.at(0, .trackPublished(trackId: "maya-screen")) }
        return c
    }

    @Test func everyTileOfABuiltinLayoutCarriesItsParticipantsName() throws {
        let tiles = try #require(plan(twoOnStage(), layout: Layout.builtin(named: "grid")!).intervals.first?.tiles)
        #expect(tiles.map { $0.label?.text } == ["Maya", "Omar"])
        #expect(tiles.allSatisfy { $0.label?.style == LabelStyle() })
    }

    @Test func aScreenShareTileIsLabelledAsItsSharersScreen() throws {
        // Not like the sharer's camera beside it: a viewer must tell the two apart.
        let tiles = try #require(plan(twoOnStage(screen: true), layout: Layout.builtin(named: "screen-share")!).intervals.first?.tiles)
        let share = try #require(tiles.first { $0.source == .screenShare })
        #expect(share.label?.text == "Maya (screen)")
        #expect(tiles.first { $0.source == .camera && $0.participantId == "maya" }?.label?.text == "Maya")
    }

    @Test func labelsOffRemovesEveryLabelAndNothingElse() throws {
        let layout = Layout.builtin(named: "spotlight")!
        let on = plan(twoOnStage(), layout: layout)
        let off = plan(twoOnStage(), layout: layout.withoutLabels)
        #expect(on.intervals.flatMap(\.tiles).allSatisfy { $0.label != nil })
        #expect(off.intervals.flatMap(\.tiles).allSatisfy { $0.label == nil })
        var stripped = on
        for i in stripped.intervals.indices {
            for t in stripped.intervals[i].tiles.indices { stripped.intervals[i].tiles[t].label = nil }
        }
        #expect(stripped == off)
    }

    @Test func aRegionWithoutALabelStyleShowsNoName() throws {
        let tiles = try #require(plan(twoOnStage(), layout: halvesLayout(fit: .cover)).intervals.first?.tiles)
        #expect(tiles.count == 2 && tiles.allSatisfy { $0.label == nil })
    }

    @Test func aBlankNameGivesNoLabel() {
        #expect(PlannedLabel.of(name: "  \n", style: LabelStyle()) == nil)
        #expect(PlannedLabel.of(name: " José Núñez ", style: LabelStyle())?.text == "José Núñez")
        #expect(PlannedLabel.of(name: "José", style: nil) == nil)
    }

    @Test func labelsAreSizedForTheCanvasThePlanIsFor() throws {
        let layout = Layout.builtin(named: "grid")!.resized(to: CanvasSize(width: 1920, height: 1080))
        let label = try #require(plan(twoOnStage(), layout: layout).intervals.first?.tiles.first?.label)
        #expect(label.style.size == 30 && label.style.margin == 12)
    }

    @Test func thePlansJSONShowsTheLabel() throws {
        let capture = twoOnStage().capture(endingAt: 10_000)
        let doc = try PlanDocument(capture: capture, layout: Layout.builtin(named: "grid")!, pauseGraceMs: 3000,
                                   tiers: .agora, prices: nil, edits: .none)
        let json = String(decoding: try PlanDocument.encode(doc), as: UTF8.self)
        #expect(json.contains(#""text" : "Maya""#) || json.contains(#""text":"Maya""#))
        #expect(json.contains("bottom-left"))
    }
}
