import Foundation
import Testing
import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// More on stage than the layout has tiles for: the plan's warnings name the limit (the region and
/// its grid or `limit`), the peak, the stretches and who was left out, in one line per limit.
@Suite("A stage fuller than the layout")
struct CrowdedStageTests {
    /// `count` people p01, p02... coming on stage 20 ms apart from 0 (so the pin order is theirs).
    func crowd(_ count: Int) -> TestCapture {
        var c = TestCapture()
        for i in 1...count {
            let id = String(format: "p%02d", i)
            c.person(id)
            c.onStage(id, at: (i - 1) * 20)
        }
        return c
    }

    func warnings(_ c: TestCapture, endingAt end: Int = 30_000, layout: Layout) throws -> [String] {
        try PlanDocument(capture: c.capture(endingAt: end), layout: layout).warnings.filter { $0.contains("cannot show everyone") }
    }

    func layout(_ name: String) throws -> Layout { try #require(Layout.builtin(named: name)) }

    @Test func fiftyOnAFiveByFiveGridIsOneWarningNamingTheGridThePeakAndWhoWasLeftOut() throws {
        let all = try warnings(crowd(50), layout: layout("grid"))
        #expect(all.count == 1, "\(all)")
        let warning = try #require(all.first)
        #expect(warning.contains(#"layout "grid""#), "\(warning)")
        #expect(warning.contains(#"region "stage" shows at most 25 tiles (maxRows 5 x maxColumns 5)"#), "\(warning)")
        #expect(warning.contains("up to 50 were on stage, 25 shown and 25 left out at the peak (1.0 to 30.0 s)"), "\(warning)")
        // p26 came on at 0.5 s, the first who found no tile.
        #expect(warning.contains("someone was left out 0.5 to 30.0 s (29.5 s in all)"), "\(warning)")
        #expect(warning.contains("25 left out at some time: P26, P27, P28, P29, P30, P31, P32, P33, P34, P35 and 15 more"), "\(warning)")
        #expect(!warning.contains("P25"), "the 25 first pinned are shown")
    }

    @Test func aFullStageOrOneThatFitsGivesNoWarning() throws {
        #expect(try warnings(crowd(25), layout: layout("grid")).isEmpty)
        #expect(try warnings(crowd(7), layout: layout("spotlight")).isEmpty)
    }

    /// A region's `limit` below its grid is the limit named.
    @Test func aRegionLimitIsNamed() throws {
        let limited = Layout(name: "dozen", canvas: CanvasSize(width: 1280, height: 720), fps: 30, background: .black, regions: [
            Region(name: "panel", x: 0, y: 0, width: 1, height: 1, maxRows: 5, maxColumns: 5, sources: [.camera], limit: 12),
        ])
        let warning = try #require(try warnings(crowd(20), layout: limited).first)
        #expect(warning.contains(#"region "panel" shows at most 12 tiles (limit 12)"#), "\(warning)")
        #expect(warning.contains("up to 20 were on stage, 12 shown and 8 left out"), "\(warning)")
        #expect(warning.contains("8 left out at some time: P13, P14, P15, P16, P17, P18, P19, P20"), "\(warning)")
        #expect(!warning.contains("more"), "\(warning)")
    }

    /// The spotlight's room is two regions: both are named.
    @Test func aLayoutOfSeveralRegionsNamesEachThatRanOutOfRoom() throws {
        let warning = try #require(try warnings(crowd(9), layout: layout("spotlight")).first)
        #expect(warning.contains(#"region "spotlight" shows at most 1 tile (maxRows 1 x maxColumns 1)"#) && warning.contains(#"region "strip" shows at most 6 tiles (maxRows 1 x maxColumns 6)"#), "\(warning)")
        #expect(warning.contains("up to 9 were on stage, 7 shown and 2 left out"), "\(warning)")
        #expect(warning.contains("P08, P09"), "\(warning)")
    }

    /// The stage shrinks below the limit and grows past it again: two stretches, the peak where the most were left out.
    @Test func stretchesAndThePeakFollowTheStage() throws {
        var c = crowd(30)
        for i in 1...5 { c.at(10_000, .participantLeft(participantId: String(format: "p%02d", i))) }
        // A mute splits the stage's stretch, not the peak.
        c.at(5_000, .trackMuted(trackId: "p10-mic"))
        for i in 31...33 {
            let id = String(format: "p%02d", i)
            c.person(id)
            c.onStage(id, at: 20_000)
        }
        let warning = try #require(try warnings(c, layout: layout("grid")).first)
        // 30 on stage to 10 s (5 left out), 25 to 20 s (none), then 28 (3 left out).
        #expect(warning.contains("up to 30 were on stage, 25 shown and 5 left out at the peak (0.6 to 10.0 s)"), "\(warning)")
        #expect(warning.contains("someone was left out 0.5 to 10.0 s, 20.0 to 30.0 s (19.5 s in all)"), "\(warning)")
        #expect(warning.contains("8 left out at some time: P26, P27, P28, P29, P30, P31, P32, P33"), "\(warning)")
    }

    /// A stage that changes all the time still gives one line, its stretches counted, not listed.
    @Test func aStageThatKeepsChangingStaysOneLine() throws {
        var c = crowd(26)
        for second in 1..<30 {
            c.at(second * 1_000, second % 2 == 1 ? .participantLeft(participantId: "p26") : .participantJoined(participantId: "p26", mode: .sendAndReceive, role: nil))
            if second % 2 == 0 {
                c.at(second * 1_000, .pinned(participantId: "p26"))
                c.at(second * 1_000, .trackPublished(trackId: "p26-cam"))
            }
        }
        let all = try warnings(c, layout: layout("grid"))
        #expect(all.count == 1)
        let warning = try #require(all.first)
        #expect(warning.contains("0.5 to 1.0 s, 2.0 to 3.0 s, 4.0 to 5.0 s, 6.0 to 7.0 s, 8.0 to 9.0 s and 10 more stretches (14.5 s in all)"), "\(warning)")
        #expect(warning.count < 600, "\(warning.count) characters")
    }

    /// A share a full grid leaves out is a matter of room, not of a layout with no place for shares.
    @Test func aShareLeftOutOfAFullGridIsNamedAsSuch() throws {
        var c = crowd(25)
        c.person("maya", screen: true)
        c.onStage("maya", at: 1_000)
        c.at(5_000, .trackPublished(trackId: "maya-screen"))
        let doc = try PlanDocument(capture: c.capture(endingAt: 30_000), layout: layout("grid"))
        #expect(!doc.warnings.contains { $0.contains("no place for a screen share") }, "\(doc.warnings)")
        let warning = try #require(doc.warnings.first { $0.contains("cannot show everyone") })
        #expect(warning.contains("up to 26 were on stage, 25 shown and 2 left out"), "\(warning)")
        #expect(warning.contains("2 left out at some time: Maya, Maya (screen)"), "\(warning)")
    }

    /// `plan` prints it as every warning is printed.
    @Test func thePlanTextShowsIt() throws {
        let doc = try PlanDocument(capture: crowd(30).capture(endingAt: 30_000), layout: layout("grid"))
        #expect(PlanTextReport.render(doc).contains("warning: layout \"grid\" cannot show everyone on stage"))
    }
}
