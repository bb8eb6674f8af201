import StageMixTestSupport
import StageMixJSON
import Foundation
import Testing
@testable import StageMixCapture
@testable import StageMixPlan

/// Numbers at and beyond docs/limits.md: each is rejected at its JSON path (before it can overflow
/// anything), and the largest allowed values are accepted.
@Suite struct CaptureLimitsTests {
    static let int64Max = Int(Int64.max)
    static let beyondDouble = 9_007_199_254_740_993 // 2^53 + 1: not exactly a Double
    static let huge = 1 << 62

    static let rules: [BrokenRule] = [
        BrokenRule("session.ended at Int64.max", "$.events[20].atMs") { $0.events[20]["atMs"] = int64Max },
        BrokenRule("session.ended at 2^53+1", "$.events[20].atMs") { $0.events[20]["atMs"] = beyondDouble },
        BrokenRule("session.ended a millisecond past 24 h", "$.events[20].atMs") { $0.events[20]["atMs"] = CaptureLimits.maxSessionMs + 1 },
        BrokenRule("atMs at -2^62", "$.events[3].atMs") { $0.events[3]["atMs"] = -huge },
        BrokenRule("atMs at 1e300", "$.events[20].atMs") { $0.events[20]["atMs"] = 1e300 },
        BrokenRule("track startOffsetMs at 2^53+1", "$.tracks[2].startOffsetMs") { $0.tracks[2]["startOffsetMs"] = beyondDouble },
        BrokenRule("track startOffsetMs at Int64.max", "$.tracks[0].startOffsetMs") { $0.tracks[0]["startOffsetMs"] = int64Max },
        BrokenRule("track startOffsetMs past 24 h", "$.tracks[1].startOffsetMs") { $0.tracks[1]["startOffsetMs"] = CaptureLimits.maxSessionMs + 1 },
        BrokenRule("layer startOffsetMs at Int64.max", "$.tracks[2].layers[0].startOffsetMs") {
            var layers = $0.layers(2); layers[0]["startOffsetMs"] = int64Max; $0.setLayers(2, layers)
        },
        BrokenRule("layer width 2^62", "$.tracks[0].layers[0].width") {
            var layers = $0.layers(0); layers[0]["width"] = huge; $0.setLayers(0, layers)
        },
        BrokenRule("layer height 2^62", "$.tracks[0].layers[1].height") {
            var layers = $0.layers(0); layers[1]["height"] = huge; $0.setLayers(0, layers)
        },
        BrokenRule("layer width and height 2^62", "$.tracks[2].layers[0].width", "$.tracks[2].layers[0].height") {
            var layers = $0.layers(2); layers[0]["width"] = huge; layers[0]["height"] = huge; $0.setLayers(2, layers)
        },
        BrokenRule("layer width 1", "$.tracks[0].layers[0].width") {
            var layers = $0.layers(0); layers[0]["width"] = 1; $0.setLayers(0, layers)
        },
        BrokenRule("layer height 16385", "$.tracks[0].layers[0].height") {
            var layers = $0.layers(0); layers[0]["height"] = 16_385; $0.setLayers(0, layers)
        },
        BrokenRule("layer of 16384 x 16384", "$.tracks[0].layers[2]") {
            var layers = $0.layers(0); layers[2]["width"] = 16_384; layers[2]["height"] = 16_384; $0.setLayers(0, layers)
        },
        BrokenRule("startedAt in year 0", "$.startedAt") { $0.document["startedAt"] = "0000-01-01T00:00:00Z" },
        BrokenRule("startedAt in year 9999", "$.startedAt") { $0.document["startedAt"] = "9999-12-31T23:59:59.999Z" },
        BrokenRule("startedAt before the epoch", "$.startedAt") { $0.document["startedAt"] = "1969-12-31T23:59:59Z" },
        BrokenRule("startedAt in 2200", "$.startedAt") { $0.document["startedAt"] = "2200-01-01T00:00:00Z" },
        BrokenRule("more participants than allowed", "$.participants") {
            $0.participants += (0..<CaptureLimits.maxParticipants - 1).map { ["id": "p-\($0)", "name": ""] }
        },
        BrokenRule("more tracks than allowed", "$.tracks") {
            $0.tracks += (0..<CaptureLimits.maxTracks - 3).map {
                ["id": "TR_\($0)", "participantId": "p-maya", "kind": "audio", "source": "microphone", "file": "media/a.ogg"]
            }
        },
        BrokenRule("more roles than allowed", "$.roles") {
            var roles = $0.document["roles"] as! [String: Any]
            for i in 0..<CaptureLimits.maxRoles - 2 { roles["role-\(i)"] = ["canPublish": [String]()] }
            $0.document["roles"] = roles
        },
        BrokenRule("more on stage at once than allowed", "$.events[219]") {
            $0.bringOnStage(CaptureLimits.maxOnStage)
        },
        BrokenRule("more tracks published at once than allowed", "$.events[34].trackId") {
            let extra = CaptureLimits.maxPublishedTracksPerParticipant - 1
            $0.tracks += (0..<extra).map {
                ["id": "TR_maya_\($0)", "participantId": "p-maya", "kind": "audio", "source": "microphone", "file": "media/a.ogg"]
            }
            let end = $0.events.removeLast()
            $0.events += (0..<extra).map { ["atMs": 16_000, "type": "track.published", "trackId": "TR_maya_\($0)"] }
            $0.events.append(end)
        },
    ]

    @Test func aFullStageIsAccepted() throws {
        var fixture = CaptureFixture.valid
        fixture.bringOnStage(CaptureLimits.maxOnStage - 1) // with Maya, exactly the limit
        let capture = try fixture.parse()
        #expect(try StageTimeline(capture: capture).segment(atMs: 17_000)?.onStage.count == CaptureLimits.maxOnStage)
    }

    /// A full stage whose microphone mutes and unmutes thousands of times: each change keeps the whole
    /// stage, so past `maxStageStretches` the timeline stops and names the event, before the memory goes.
    @Test func aStageThatChangesTooOftenForItsSizeIsRefusedAtTheEvent() throws {
        var fixture = CaptureFixture.valid
        fixture.bringOnStage(CaptureLimits.maxOnStage - 1)
        let mic = try #require(fixture.tracks.first { $0["participantId"] as? String == "p-maya" && $0["kind"] as? String == "audio" }?["id"] as? String)
        let end = fixture.events.removeLast()
        let first = fixture.events.count
        let toggles = CaptureLimits.maxStageStretches / CaptureLimits.maxOnStage + 10
        fixture.events += (0..<toggles).map { ["atMs": 16_001 + $0, "type": $0 % 2 == 0 ? "track.muted" : "track.unmuted", "trackId": mic] }
        fixture.events.append(end)
        let capture = try fixture.parse()
        do {
            _ = try StageTimeline(capture: capture)
            Issue.record("a stage of \(CaptureLimits.maxOnStage) changing \(toggles) times was accepted")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.expected.contains("participant-stretches") && problem.path.hasPrefix("$.events["), "\(problem)")
            // The event that crossed it: the stage's stretches are 1 before Maya's and the others' arrival, then
            // 100 each from the arrival and from each toggle.
            let index = Int(problem.path.dropFirst("$.events[".count).dropLast()) ?? 0
            let crossing = first + (CaptureLimits.maxStageStretches - 1) / CaptureLimits.maxOnStage - 1
            #expect(abs(index - crossing) <= 1, "at the toggle that crosses it (about \(crossing)): \(problem.path)")
            #expect(problem.found.contains("more by this event"), "\(problem.found)")
        }
        // Half as many changes fit.
        var fewer = CaptureFixture.valid
        fewer.bringOnStage(CaptureLimits.maxOnStage - 1)
        let fewerEnd = fewer.events.removeLast()
        fewer.events += (0..<toggles / 2).map { ["atMs": 16_001 + $0, "type": $0 % 2 == 0 ? "track.muted" : "track.unmuted", "trackId": mic] }
        fewer.events.append(fewerEnd)
        #expect(try StageTimeline(capture: try fewer.parse()).segments.count > toggles / 2)
    }

    @Test(arguments: rules)
    func eachExtremeIsReportedAtItsPath(_ rule: BrokenRule) {
        var fixture = CaptureFixture.valid
        rule.breakIt(&fixture)
        let problems = fixture.problems()
        #expect(problems.map(\.path) == rule.paths, "\(problems.map(\.description))")
        #expect(problems.allSatisfy { $0.file == "session.json" && !$0.expected.isEmpty && !$0.found.isEmpty })
    }

    @Test func theLargestValuesAreAccepted() throws {
        var fixture = CaptureFixture.valid
        fixture.document["startedAt"] = "2199-12-31T23:59:59.999Z"
        fixture.events[20]["atMs"] = CaptureLimits.maxSessionMs
        fixture.tracks[1]["startOffsetMs"] = CaptureLimits.maxSessionMs
        var layers = fixture.layers(0)
        layers[2]["width"] = 16_384; layers[2]["height"] = 4_096 // exactly maxLayerPixels
        layers[0]["width"] = 2; layers[0]["height"] = 2
        fixture.setLayers(0, layers)
        fixture.participants += (0..<CaptureLimits.maxParticipants - 2).map { ["id": "p-\($0)", "name": ""] }
        let capture = try fixture.parse()
        #expect(capture.durationMs == CaptureLimits.maxSessionMs)
        #expect(capture.track("TR_maya_cam")?.layers.last.map { $0.width * $0.height } == CaptureLimits.maxLayerPixels)
        #expect(capture.participants.count == CaptureLimits.maxParticipants)
    }

    @Test func problemsNameTheLimit() throws {
        var fixture = CaptureFixture.valid
        fixture.events[20]["atMs"] = Self.int64Max
        var layers = fixture.layers(0)
        layers[2]["width"] = 16_384; layers[2]["height"] = 16_384
        fixture.setLayers(0, layers)
        #expect(fixture.problems().map(\.description) == [
            "session.json: $.tracks[0].layers[2]: expected width x height at most 67108864 pixels (8192 x 8192; docs/limits.md), "
                + "found 16384 x 16384 = 268435456 pixels",
            "session.json: $.events[20].atMs: expected an integer from 0 to 86400000 (milliseconds, at most 24 h; docs/limits.md), "
                + "found the number 9223372036854775807",
        ])
    }

    /// Numbers beyond `Int` itself, written as JSON text (a dictionary cannot hold them).
    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "1e400", "18446744073709551616"])
    func numbersBeyondIntAreRejectedNotRounded(_ literal: String) {
        let text = String(decoding: CaptureFixture.valid.data, as: UTF8.self)
            .replacingOccurrences(of: #"{"atMs":20000,"type":"session.ended"}"#, with: #"{"atMs":\#(literal),"type":"session.ended"}"#)
        #expect(text.contains(literal))
        do {
            _ = try CaptureReader.parse(Data(text.utf8), directory: CaptureFixture.nowhere)
            Issue.record("accepted atMs \(literal)")
        } catch {
            #expect(error.problems.map(\.path) == ["$.events[20].atMs"])
        }
    }

    /// A million and one events, each an empty object: refused by their count, before any is read.
    @Test func moreEventsThanAllowedAreRefusedByTheirCount() {
        var fixture = CaptureFixture.valid
        fixture.events = []
        let text = String(decoding: fixture.data, as: UTF8.self)
            .replacingOccurrences(of: #""events":[]"#, with: #""events":["# + String(repeating: "{},", count: CaptureLimits.maxEvents) + "{}]")
        do {
            _ = try CaptureReader.parse(Data(text.utf8), directory: CaptureFixture.nowhere)
            Issue.record("accepted \(CaptureLimits.maxEvents + 1) events")
        } catch {
            #expect(error.problems.map(\.description) == [
                "session.json: $.events: expected at most 1000000 events (docs/limits.md), found 1000001",
            ])
        }
    }

    /// A sparse file larger than the limit: refused by its size, without reading it.
    @Test func anOversizedManifestIsRefusedUnread() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let manifest = scratch.url.appendingPathComponent("session.json")
        FileManager.default.createFile(atPath: manifest.path, contents: nil)
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.truncate(atOffset: UInt64(CaptureLimits.maxManifestBytes) + 1)
        try handle.close()
        do {
            _ = try CaptureReader.read(directory: scratch.url)
            Issue.record("read an oversized manifest")
        } catch {
            #expect(error.problems.map(\.path) == ["$"])
            #expect(error.problems.first?.found == "\(CaptureLimits.maxManifestBytes + 1) bytes")
        }
    }
}

extension CaptureFixture {
    /// `count` more speakers join and are pinned at 16 s, after Omar has left and while Maya is on stage.
    mutating func bringOnStage(_ count: Int) {
        participants += (0..<count).map { ["id": "s-\($0)", "name": ""] }
        let end = events.removeLast()
        for i in 0..<count {
            events.append(["atMs": 16_000, "type": "participant.joined", "participantId": "s-\(i)", "mode": "SEND_AND_RECV", "role": "speaker"])
            events.append(["atMs": 16_000, "type": "participant.pinned", "participantId": "s-\(i)"])
        }
        events.append(end)
    }
}
