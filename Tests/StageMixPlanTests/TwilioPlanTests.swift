import Foundation
import Testing
@testable import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan
import StageMixTestSupport

/// A Twilio layout plans like any layout (tiles with rectangles over time), placing tracks by Twilio's
/// rules; tracks are named as `stagemix import twilio` records them in `import.json`.
@Suite("Twilio layouts in the plan")
struct TwilioPlanTests {
    /// Maya on stage from 0, Omar from 4 s, Lena from 8 s, of a 20 s session; `import.json` names each
    /// track as Twilio did (track name, MT and PA sids).
    func capture(omarLeavesAt: Int? = nil) -> Capture {
        var c = TestCapture(); c.person("maya"); c.person("omar"); c.person("lena")
        c.onStage("maya", at: 0); c.onStage("omar", at: 4_000); c.onStage("lena", at: 8_000)
        if let omarLeavesAt { c.at(omarLeavesAt, .trackUnpublished(trackId: "omar-cam")) }
        var tracks: [String: [String: String]] = [:]
        for person in ["maya", "omar", "lena"] {
            for kind in ["cam", "mic"] {
                tracks["\(person)-\(kind)"] = ["track_name": "\(person)-\(kind)", "source_sid": "MT\(person)\(kind)", "participant_sid": "PA\(person)"]
            }
        }
        var capture = c.capture(endingAt: 20_000)
        capture.importNote = ImportNote(platform: "twilio", warnings: [], tracks: tracks)
        return capture
    }

    func layout(_ json: String) throws -> Layout {
        Layout(twilio: try TwilioVideoLayout.parse(Data(json.utf8), file: "twilio.json"), name: "twilio:twilio.json")
    }

    @Test func regionsPlaceTracksInCellsByNameAndSidAndMixTheNamedAudio() throws {
        let layout = try layout(#"""
            {"VideoLayout": {
               "main": {"max_rows": 1, "max_columns": 2, "video_sources": ["*-cam"], "video_sources_excluded": ["PAlena"]},
               "pip": {"x_pos": 480, "y_pos": 360, "z_pos": 1, "width": 160, "height": 120, "video_sources": ["MTlenacam"]}},
             "AudioSources": ["*"], "AudioSourcesExcluded": ["omar*"]}
            """#)
        let doc = try PlanDocument(capture: capture(), layout: layout)
        #expect(doc.plan.canvas == CanvasSize(width: 640, height: 480) && doc.plan.background == .black)
        #expect(doc.plan.intervals.map(\.startMs) == [0, 4_000, 8_000])
        let early = try #require(doc.plan.interval(atMs: 2_000))
        // Sized for the two cameras main ever shows at once: 1x2, Maya in the left cell from the start.
        #expect(early.tiles.map { "\($0.region) \($0.trackId ?? "") \($0.rect)" } == ["main maya-cam \(Rect(x: 0, y: 0, width: 320, height: 480))"])
        let late = try #require(doc.plan.interval(atMs: 10_000))
        #expect(late.tiles.map(\.trackId) == ["maya-cam", "omar-cam", "lena-cam"])
        #expect(late.tiles.map(\.rect) == [Rect(x: 0, y: 0, width: 320, height: 480), Rect(x: 320, y: 0, width: 320, height: 480),
                                           Rect(x: 480, y: 360, width: 160, height: 120)])
        #expect(late.tiles.allSatisfy { $0.fit == .contain && $0.label == nil && $0.show == .video })
        #expect(late.regions.map(\.region) == ["main", "pip"] && late.regions.allSatisfy { $0.color == .black })
        #expect(late.audio.map(\.trackId).sorted() == ["lena-mic", "maya-mic"])
        #expect(doc.warnings.isEmpty)
    }

    @Test func aNewerTrackCoversTheCellUnderShowNewestAndTheOlderComesBack() throws {
        let layout = try layout(#"{"main": {"max_rows": 1, "max_columns": 1, "reuse": "show_newest", "video_sources": ["maya-cam", "omar-cam"]}}"#)
        let doc = try PlanDocument(capture: capture(omarLeavesAt: 12_000), layout: layout)
        let shown = doc.plan.intervals.map { "\($0.startMs)-\($0.endMs) \($0.tiles.compactMap(\.trackId))" }
        // (Lena, whom the region does not take, still joins the mix at 8 s.)
        #expect(shown == ["0-4000 [\"maya-cam\"]", "4000-8000 [\"omar-cam\"]", "8000-12000 [\"omar-cam\"]", "12000-20000 [\"maya-cam\"]"])
        // A bare VideoLayout says nothing of audio: every microphone on stage is mixed.
        #expect(try #require(doc.plan.interval(atMs: 10_000)).audio.count == 3)
    }

    @Test func aTrackInTwoRegionsIsReadAtOneLayer() throws {
        var c = TestCapture(); c.person("maya"); c.onStage("maya", at: 0)
        let layout = try layout(#"{"main": {"video_sources": ["*"]}, "pip": {"x_pos": 480, "y_pos": 360, "z_pos": 1, "width": 160, "height": 120, "video_sources": ["*"]}}"#)
        let tiles = try #require(try PlanDocument(capture: c.capture(endingAt: 5_000), layout: layout).plan.interval(atMs: 1_000)).tiles
        // The main tile needs 640x360 (the medium layer), the inset 160x90 (low): both read medium.
        #expect(tiles.map(\.region) == ["main", "pip"])
        #expect(tiles.map { $0.layer?.quality } == [.medium, .medium])
        #expect(tiles.map { $0.layer?.neededWidth } == [640, 160])
    }

    @Test func withoutImportNamesATrackIsCalledByItsIdAndItsParticipant() throws {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        let layout = try layout(#"{"main": {"video_sources": ["omar", "maya-c*"]}}"#)
        let doc = try PlanDocument(capture: c.capture(endingAt: 5_000), layout: layout)
        #expect(try #require(doc.plan.interval(atMs: 1_000)).tiles.compactMap(\.trackId) == ["maya-cam", "omar-cam"])
    }

    @Test func aTwilioFileIsFoundByPrefixOrByShapeAndItsResolutionChecked() throws {
        let scratch = ScratchDirectory("twilio-layout"); defer { scratch.remove() }
        scratch.write(#"{"main": {"video_sources": ["*"]}}"#, to: "bare.json")
        for name in ["twilio:" + scratch.file("bare.json").path, scratch.file("bare.json").path] {
            let layout = try Layout.resolve(name)
            #expect(layout.twilio?.regions.map(\.name) == ["main"] && layout.canvas == CanvasSize(width: 640, height: 480), "\(name)")
            #expect(Layout.isTwilio(name))
        }
        let larger = try Layout.resolve(scratch.file("bare.json").path, twilioResolution: CanvasSize(width: 1280, height: 720))
        #expect(larger.canvas == CanvasSize(width: 1280, height: 720) && larger.twilio?.regions[0].width == 1280)
        #expect(!Layout.isTwilio("grid"))
        scratch.write(#"{"main": {"x_pos": 700, "video_sources": ["*"]}}"#, to: "bad.json")
        #expect(throws: LayoutError.self) { try Layout.resolve("twilio:" + scratch.file("bad.json").path) }
    }

    /// Maya publishes from 3 to 8 s (her camera only, with `micStays`), Omar from 12 s to the end (20 s).
    func gappy(micStays: Bool = false) -> Capture {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 3_000)
        c.at(8_000, .trackUnpublished(trackId: "maya-cam"))
        if !micStays { c.at(8_000, .trackUnpublished(trackId: "maya-mic")) }
        c.onStage("omar", at: 12_000)
        return c.capture(endingAt: 20_000)
    }

    @Test func trimTakesOutTheInitialGapAlwaysAndLaterGapsUnlessFalse() throws {
        let trimmed = try PlanDocument(capture: gappy(), layout: layout(#"{"main": {"video_sources": ["*"]}}"#))
        #expect(trimmed.plan.durationMs == 20_000 - 3_000 - 4_000)
        #expect(trimmed.plan.startedAt == gappy().startedAt.addingTimeInterval(3))
        #expect(try #require(trimmed.plan.interval(atMs: 6_000)).tiles.compactMap(\.trackId) == ["omar-cam"],
                "output 6 s is session 14 s")
        let kept = try PlanDocument(capture: gappy(), layout: layout(#"{"VideoLayout": {"main": {"video_sources": ["*"]}}, "AudioSources": ["*"], "Trim": false}"#))
        #expect(kept.plan.durationMs == 20_000 - 3_000)
        #expect(try #require(kept.plan.interval(atMs: 6_000)).tiles.isEmpty, "session 9 s: the gap is black")
    }

    @Test func trimNeverTakesOutTimeWhileAudioPlays() throws {
        let doc = try PlanDocument(capture: gappy(micStays: true), layout: layout(#"{"main": {"video_sources": ["*"]}}"#))
        #expect(doc.plan.durationMs == 20_000 - 3_000)
        // Audio the composition leaves out does not hold a gap open.
        let muteless = try PlanDocument(capture: gappy(micStays: true),
                                        layout: layout(#"{"VideoLayout": {"main": {"video_sources": ["*"]}}, "AudioSources": ["omar*"]}"#))
        #expect(muteless.plan.durationMs == 20_000 - 3_000 - 4_000)
    }
}
