import Foundation
import Testing
@testable import StageMixLayout

/// A Twilio layout that Twilio would answer with a 4xx is refused whole, each problem naming the file,
/// the region and the property by JSON path.
@Suite("Twilio layout validation")
struct TwilioLayoutValidationTests {
    static let file = "twilio.json"

    static func problems(_ json: String, resolution: CanvasSize? = nil) -> [String] {
        do {
            _ = try TwilioVideoLayout.parse(Data(json.utf8), file: file, resolution: resolution)
            return []
        } catch {
            return error.description.split(separator: "\n").map(String.init)
        }
    }

    @Test func aValidLayoutReadsWithTwiliosDefaults() throws {
        let layout = try TwilioVideoLayout.parse(Data(#"{"main": {"video_sources": ["*"]}, "pip": {"x_pos": 480, "y_pos": 360, "z_pos": 1, "width": 160, "height": 120, "max_rows": 1, "max_columns": 1, "reuse": "show_newest", "video_sources": ["presenter*"], "video_sources_excluded": ["RTxx"], "cells_excluded": []}}"#.utf8), file: Self.file)
        #expect(layout.resolution == CanvasSize(width: 640, height: 480))
        #expect(layout.trim && layout.audioSources == nil)
        let main = layout.regions[0], pip = layout.regions[1]
        #expect(main.name == "main" && main.x == 0 && main.width == 640 && main.height == 480 && main.reuse == .showOldest)
        #expect(main.maxRows == nil && main.maxColumns == nil)
        #expect(pip.x == 480 && pip.width == 160 && pip.z == 1 && pip.reuse == .showNewest && pip.maxRows == 1)
        #expect(pip.videoSourcesExcluded.map(\.text) == ["RTxx"])
    }

    @Test func aCompositionRequestCarriesResolutionAudioAndTrim() throws {
        let json = #"{"VideoLayout": {"grid": {"video_sources": ["*"], "max_columns": null, "height": null}}, "Resolution": "1280x720", "AudioSources": ["*"], "AudioSourcesExcluded": ["teacher*"], "Trim": false, "Format": "mp4"}"#
        let layout = try TwilioVideoLayout.parse(Data(json.utf8), file: Self.file)
        #expect(layout.resolution == CanvasSize(width: 1280, height: 720))
        #expect(layout.regions[0].width == 1280 && layout.regions[0].height == 720)
        #expect(layout.audioSources?.map(\.text) == ["*"] && layout.audioSourcesExcluded.map(\.text) == ["teacher*"])
        #expect(!layout.trim)
        #expect(TwilioVideoLayout.looksLikeTwilio(Data(json.utf8)))
        #expect(TwilioVideoLayout.looksLikeTwilio(Data(#"{"a": {"video_sources": []}}"#.utf8)))
        #expect(!TwilioVideoLayout.looksLikeTwilio(Data(#"{"name": "grid", "canvas": {}, "regions": []}"#.utf8)))
    }

    @Test func everyPropertyIsCheckedByTwiliosRanges() {
        let json = #"{"main": {"x_pos": 700, "y_pos": -1, "z_pos": 100, "width": 8, "max_columns": 0, "max_rows": 1001, "cells_excluded": [1, 1000000], "reuse": "sometimes", "video_sources": ["a*b"], "video_sources_excluded": "RT1", "fit": "cover"}}"#
        #expect(Self.problems(json) == [
            #"twilio.json: $.main.fit: unknown field (expected one of x_pos, y_pos, z_pos, width, height, max_columns, max_rows, cells_excluded, reuse, video_sources, video_sources_excluded)"#,
            #"twilio.json: $.main.x_pos: expected an integer from 0 to 632 (the composition's width 640 less the region's width 8), found 700"#,
            #"twilio.json: $.main.y_pos: expected an integer from 0 to 464 (the composition's height 480 less the region's height 16), found -1"#,
            #"twilio.json: $.main.z_pos: expected an integer from -99 to 99, found 100"#,
            #"twilio.json: $.main.width: expected an integer from 16 to 640 (the composition's width 640 less x_pos 0), found 8"#,
            #"twilio.json: $.main.max_columns: expected an integer from 1 to 1000, found 0"#,
            #"twilio.json: $.main.max_rows: expected an integer from 1 to 1000, found 1001"#,
            #"twilio.json: $.main.cells_excluded[1]: expected a cell index from 0 to 999999, found 1000000"#,
            #"twilio.json: $.main.reuse: expected "none", "show_oldest" or "show_newest", found "sometimes""#,
            #"twilio.json: $.main.video_sources[0]: expected a track name (with at most one "*", leading or trailing) or a recording, track or participant sid, found "a*b""#,
            #"twilio.json: $.main.video_sources_excluded: expected an array of track names or sids, found "RT1""#,
        ])
    }

    @Test func aRegionMustFitTheComposition() {
        #expect(Self.problems(#"{"side": {"x_pos": 600, "width": 100, "video_sources": ["*"]}}"#) == [
            #"twilio.json: $.side.x_pos: expected an integer from 0 to 540 (the composition's width 640 less the region's width 100), found 600"#,
        ])
        // Against --resolution, which replaces the file's.
        #expect(Self.problems(#"{"side": {"x_pos": 600, "width": 100, "video_sources": ["*"]}}"#,
                              resolution: CanvasSize(width: 1280, height: 720)) == [])
    }

    @Test func missingAndMalformedPartsAreNamed() {
        #expect(Self.problems(#"{"main": {"x_pos": 0}}"#) == [#"twilio.json: $.main: missing required field "video_sources""#])
        #expect(Self.problems(#"{}"#) == [#"twilio.json: $: expected at least one region, found an empty object"#])
        #expect(Self.problems(#"{"VideoLayout": {"main": {"video_sources": ["*"]}}, "Resolution": "1920x1080", "Trim": "yes"}"#) == [
            #"twilio.json: $.Resolution: expected a resolution "WxH" Twilio composes at (each side 16 to 1280, at most 921600 pixels, even), found "1920x1080""#,
            #"twilio.json: $.Trim: expected true or false, found "yes""#,
        ])
    }

    @Test(arguments: [(CanvasSize(width: 1280, height: 720), true), (CanvasSize(width: 16, height: 16), true),
                      (CanvasSize(width: 1280, height: 1280), false), (CanvasSize(width: 1282, height: 2), false),
                      (CanvasSize(width: 14, height: 480), false), (CanvasSize(width: 641, height: 480), false),
                      (CanvasSize(width: 1024, height: 900), true), (CanvasSize(width: 1024, height: 902), false)])
    func resolutionLimits(_ size: CanvasSize, _ allowed: Bool) {
        #expect((TwilioVideoLayout.resolutionProblem(size) == nil) == allowed, "\(size)")
    }
}
