import Testing
import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// A 1280x720 canvas split into at most two side-by-side tiles with no gaps, so geometry is easy to work out by hand.
func halvesLayout(fit: Fit, limit: Int = 2) -> Layout {
    Layout(name: "halves", canvas: CanvasSize(width: 1280, height: 720), fps: 30, background: .black, regions: [
        Region(name: "stage", x: 0, y: 0, width: 1, height: 1, maxRows: 1, maxColumns: 2, gap: 0, fit: fit,
               sources: [.camera, .screenShare], limit: limit),
    ])
}

@Suite("Composition plan")
struct PlanTests {
    func plan(_ c: TestCapture, endingAt end: Int, layout: Layout) -> CompositionPlan {
        let capture = c.capture(endingAt: end)
        return CompositionPlan(capture: capture, timeline: try! StageTimeline(capture: capture), layout: layout)
    }

    @Test func layerFitsTheTileAndChangesWhenTheStageReflows() throws {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 10_000)
        let p = plan(c, endingAt: 20_000, layout: halvesLayout(fit: .contain))
        #expect(p.intervals.map(\.startMs) == [0, 10_000])
        let alone = try #require(p.interval(atMs: 0)?.tiles.first)
        #expect(alone.rect == Rect(x: 0, y: 0, width: 1280, height: 720))
        #expect(alone.layer?.quality == .high)
        let two = try #require(p.interval(atMs: 10_000)?.tiles)
        #expect(two.map(\.participantId) == ["maya", "omar"])
        // 640x720 tiles; 16:9 contained is 640x360, exactly the medium layer.
        #expect(two.map { $0.layer?.quality } == [.medium, .medium])
        #expect(two[0].layer?.neededWidth == 640 && two[0].layer?.neededHeight == 360)
    }

    @Test func coverNeedsTheWholeTile() throws {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        let tiles = try #require(plan(c, endingAt: 1000, layout: halvesLayout(fit: .cover)).intervals.first?.tiles)
        // 640x720 covered: only the 1280x720 layer is tall enough.
        #expect(tiles.map { $0.layer?.quality } == [.high, .high])
    }

    @Test func layerChoiceRule() {
        var c = TestCapture(); c.person("maya")
        let cam = c.capture(endingAt: 1).track("maya-cam")!
        func q(_ w: Int, _ h: Int, _ fit: Fit) -> LayerQuality? {
            LayerChoice.choose(for: cam, tile: Rect(x: 0, y: 0, width: w, height: h), fit: fit)?.quality
        }
        #expect(q(400, 400, .cover) == .high)      // needs 400 tall: 360 is too short
        #expect(q(400, 400, .contain) == .medium)  // 400x224 fits in 640x360
        #expect(q(320, 180, .cover) == .low)       // exactly the low layer
        #expect(q(322, 180, .cover) == .medium)    // one step wider than low
        #expect(q(200, 100, .contain) == .low)
        #expect(q(2560, 1440, .cover) == .high)    // nothing is large enough: the largest
    }

    @Test func tracksNoTileShowsAreNotSubscribed() {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        let p = plan(c, endingAt: 1000, layout: halvesLayout(fit: .cover, limit: 1))
        #expect(p.intervals[0].tiles.map(\.participantId) == ["maya"])
        #expect(!p.subscribedFiles.contains { $0.contains("omar-cam") })
        // Everyone on stage is heard, shown or not.
        #expect(p.intervals[0].audio.map(\.trackId) == ["maya-mic", "omar-mic"])
    }

    @Test func mutedPausedAndAudioOnlyTiles() throws {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0)
        c.at(0, .participantJoined(participantId: "omar", mode: .sendAndReceive, role: nil))
        c.at(0, .pinned(participantId: "omar"))
        c.at(0, .trackPublished(trackId: "omar-mic"))
        c.at(1000, .trackMuted(trackId: "maya-cam"))
        c.at(2000, .trackUnmuted(trackId: "maya-cam"))
        c.at(2000, .streamState(trackId: "maya-cam", state: .paused))
        let p = plan(c, endingAt: 10_000, layout: halvesLayout(fit: .cover))
        let omar = try #require(p.interval(atMs: 0)?.tiles.last)
        #expect(omar.show == .placeholder && omar.placeholderReason == "no_video" && omar.trackId == nil)
        #expect(p.interval(atMs: 0)?.tiles.first?.show == .video)
        let muted = try #require(p.interval(atMs: 1500)?.tiles.first)
        #expect(muted.show == .placeholder && muted.placeholderReason == "muted" && muted.trackId == "maya-cam")
        #expect(p.interval(atMs: 2500)?.tiles.first?.show == .heldFrame)
        #expect(p.interval(atMs: 5000)?.tiles.first?.placeholderReason == "paused")
        #expect(p.intervals.map(\.startMs) == [0, 1000, 2000, 5000])
    }

    @Test func planChangesOnlyWhereTheCompositeChanges() {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0)
        // Omar on stage without a published track has no tile: the composite is unchanged.
        c.at(1000, .participantJoined(participantId: "omar", mode: .sendAndReceive, role: nil))
        c.at(1000, .pinned(participantId: "omar"))
        c.at(3000, .trackPublished(trackId: "omar-cam"))
        let capture = c.capture(endingAt: 5000)
        let timeline = try! StageTimeline(capture: capture)
        #expect(timeline.segments.map(\.startMs) == [0, 1000, 3000])
        let p = CompositionPlan(capture: capture, timeline: timeline, layout: halvesLayout(fit: .cover))
        #expect(p.intervals.map(\.startMs) == [0, 3000])
        #expect(p.intervals.last?.endMs == 5000)
    }

    @Test func screenShareTakesTheMainRegionInTheScreenShareLayout() throws {
        var c = TestCapture(); c.person("maya", screen: true); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        c.at(2000, .trackPublished(trackId: "maya-screen"))
        c.at(4000, .trackUnpublished(trackId: "maya-screen"))
        let layout = try #require(Layout.builtin(named: "screen-share"))
        let p = plan(c, endingAt: 6000, layout: layout)
        let before = try #require(p.interval(atMs: 1000)?.tiles)
        let during = try #require(p.interval(atMs: 3000)?.tiles)
        #expect(before.allSatisfy { $0.source == .camera })
        let share = try #require(during.first { $0.source == .screenShare })
        #expect(share.trackId == "maya-screen" && share.layer?.quality == .high)
        // The share takes the biggest tile of the composite.
        #expect(during.allSatisfy { $0.rect.width * $0.rect.height <= share.rect.width * share.rect.height })
        #expect(p.interval(atMs: 5000)?.tiles == before)
    }
}
