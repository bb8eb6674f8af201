import Foundation
import Testing
@testable import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// A screen share is shown in every built-in layout while it lasts, in the main area; a layout with
/// no place for one says so instead of dropping it silently.
@Suite("Screen shares in the plan")
struct ScreenSharePlanTests {
    /// Maya and Omar on stage from 0; Maya shares her screen from 5 to 15 s of a 20 s session.
    func sharing() -> TestCapture {
        var c = TestCapture(); c.person("maya", screen: true); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        c.at(5_000, .trackPublished(trackId: "maya-screen"))
        c.at(15_000, .trackUnpublished(trackId: "maya-screen"))
        return c
    }

    func document(_ layout: Layout) throws -> PlanDocument {
        try PlanDocument(capture: sharing().capture(endingAt: 20_000), layout: layout)
    }

    @Test(arguments: Layout.builtinNames)
    func everyBuiltinLayoutShowsTheShareInItsLargestTile(_ name: String) throws {
        let doc = try document(try #require(Layout.builtin(named: name)))
        let during = try #require(doc.plan.interval(atMs: 10_000))
        let share = try #require(during.tiles.first { $0.source == .screenShare }, "\(name) shows no share at 10 s")
        #expect(share.participantId == "maya" && share.show == .video && share.label?.text == "Maya (screen)")
        #expect(during.tiles.allSatisfy { $0.rect.width * $0.rect.height <= share.rect.width * share.rect.height }, "\(name)")
        // The cameras are still shown beside it (pip has room for one, the first pinned), and before
        // and after the share nobody shows a screen.
        let cameras = during.tiles.filter { $0.source == .camera }.map(\.participantId)
        #expect(cameras == (name == "pip" ? ["maya"] : ["maya", "omar"]), "\(name)")
        for ms in [2_000, 17_000] {
            #expect(try #require(doc.plan.interval(atMs: ms)).tiles.allSatisfy { $0.source == .camera }, "\(name) at \(ms)")
        }
        #expect(!doc.warnings.contains { $0.contains("screen share") }, "\(doc.warnings)")
    }

    @Test func aLayoutWithNoPlaceForAShareSaysSoWithTheSharerAndTheTimes() throws {
        let cameras = try Layout.parse(Data(#"""
            {"name": "cameras-only", "canvas": {"width": 1280, "height": 720, "fps": 30},
             "regions": [{"name": "all", "x": 0, "y": 0, "width": 1, "height": 1, "maxRows": 2, "maxColumns": 2,
                          "sources": ["camera"]}]}
            """#.utf8), file: "cameras-only.json")
        let doc = try document(cameras)
        #expect(try #require(doc.plan.interval(atMs: 10_000)).tiles.allSatisfy { $0.source == .camera })
        let warning = try #require(doc.warnings.first { $0.contains("screen share") })
        #expect(warning.contains("cameras-only") && warning.contains("Maya's screen share") && warning.contains("5.0 to 15.0 s"), "\(warning)")
        #expect(doc.warnings.filter { $0.contains("screen share") }.count == 1)
    }
}
