import Foundation
import Testing
import StageMixCapture
import StageMixPipeline
import StageMixTestSupport

/// The recorder's contract for a capture in progress, version by version: what an earlier
/// `session.json` said stays (participants, roles, tracks, layers and events only appended,
/// `completeToMs` never back, `recording` left out only with `session.ended`), and media files only
/// grow. Each refusal names `session.json` (or the media file) and the JSON path of the first difference.
@Suite("the recorder's contract")
struct RecorderContractTests {
    static let manifest = URL(fileURLWithPath: "/nonexistent/live/session.json")

    /// A version as a recorder writes it: two participants, Ana's camera (two layers) and microphone,
    /// and `events` as given (none by default: the joins and publishes below).
    static func version(completeToMs: Int? = 4_000, events extra: [[String: Any]] = [], ended: Bool = false) -> [String: Any] {
        var document: [String: Any] = [
            "format": "stagemix.capture/1", "sessionId": "s1", "startedAt": "2026-11-20T18:00:00.000Z",
            "roles": ["host": ["canPublish": ["audio", "video"]]],
            "participants": [["id": "p-ana", "name": "Ana"], ["id": "p-ben", "name": "Ben"]],
            "tracks": [
                ["id": "TR_cam", "participantId": "p-ana", "kind": "video", "source": "camera",
                 "layers": [["quality": "low", "width": 320, "height": 180, "file": "media/cam-low.webm"],
                            ["quality": "high", "width": 1280, "height": 720, "file": "media/cam-high.webm"]]],
                ["id": "TR_mic", "participantId": "p-ana", "kind": "audio", "source": "microphone", "file": "media/mic.ogg"],
            ],
            "events": [
                ["atMs": 0, "type": "participant.joined", "participantId": "p-ana", "mode": "SEND_AND_RECV", "role": "host"],
                ["atMs": 0, "type": "track.published", "trackId": "TR_cam"],
                ["atMs": 1_000, "type": "participant.pinned", "participantId": "p-ana"],
            ] + extra + (ended ? [["atMs": 9_000, "type": "session.ended"]] : []),
        ]
        if let completeToMs { document["recording"] = ["completeToMs": completeToMs] }
        return document
    }

    static func data(_ document: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    }

    /// The problem the contract finds in `later` after `earlier`; `nil` when it takes it.
    static func problem(_ earlier: [String: Any], then later: [String: Any]) throws -> (path: String, expected: String, found: String, file: String)? {
        var contract = RecorderContract(manifest: manifest)
        try contract.check(data(earlier))
        do {
            try contract.check(data(later))
            return nil
        } catch {
            let problem = try #require(error.problems.first)
            #expect(error.problems.count == 1)
            return (problem.path, problem.expected, problem.found, problem.file)
        }
    }

    static func events(_ document: [String: Any]) -> [[String: Any]] { document["events"] as? [[String: Any]] ?? [] }

    @Test func appendingAndGrowingIsTheContractKept() throws {
        let earlier = Self.version()
        var later = Self.version(completeToMs: 6_500, events: [["atMs": 5_000, "type": "track.published", "trackId": "TR_mic"]])
        later["participants"] = (later["participants"] as! [[String: Any]]) + [["id": "p-cy", "name": "Cy"]]
        var tracks = later["tracks"] as! [[String: Any]]
        tracks[0]["layers"] = (tracks[0]["layers"] as! [[String: Any]]) + [["quality": "medium", "width": 640, "height": 360, "file": "media/cam-mid.webm"]]
        tracks.append(["id": "TR_ben", "participantId": "p-ben", "kind": "audio", "source": "microphone", "file": "media/ben.ogg"])
        later["tracks"] = tracks
        later["roles"] = ["host": ["canPublish": ["audio", "video"]], "guest": ["canPublish": []]]
        later["note"] = "a member the reader ignores, new in this version"
        #expect(try Self.problem(earlier, then: later) == nil)
        // The same completeToMs, and the same values written otherwise (members reordered, 1000 as 1000.0), are fine too.
        let rewritten = String(decoding: Self.data(earlier), as: UTF8.self).replacingOccurrences(of: "\"atMs\":1000", with: "\"atMs\":1000.0")
        var contract = RecorderContract(manifest: Self.manifest)
        try contract.check(Self.data(earlier))
        try contract.check(Data(rewritten.utf8))
        try contract.check(try JSONSerialization.data(withJSONObject: earlier))
    }

    @Test func anEventChangedIsNamedAtTheMemberThatChanged() throws {
        let earlier = Self.version()
        var later = Self.version(completeToMs: 5_000)
        var events = Self.events(later)
        events[2]["atMs"] = 1_200
        later["events"] = events
        let problem = try #require(try Self.problem(earlier, then: later))
        #expect(problem.file == Self.manifest.path)
        #expect(problem.path == "$.events[2].atMs")
        #expect(problem.expected.contains("1000") && problem.expected.contains("version before"), "\(problem)")
        #expect(problem.found == "1200", "\(problem)")

        // A member the reader ignores is still part of what the version said.
        events = Self.events(Self.version())
        events[1]["note"] = "added later"
        later["events"] = events
        #expect(try Self.problem(earlier, then: later)?.path == "$.events[1].note")
    }

    @Test func anEventRemovedIsNamedWhereTheArraysPart() throws {
        let earlier = Self.version()
        var later = Self.version()
        later["events"] = Array(Self.events(later).dropLast())
        let gone = try #require(try Self.problem(earlier, then: later))
        #expect(gone.path == "$.events[2]", "\(gone)")
        #expect(gone.expected.contains("participant.pinned") && gone.found.contains("nothing"), "\(gone)")

        // Removed from the middle: the next event now sits in its place.
        var middle = Self.events(Self.version())
        middle.remove(at: 1)
        later["events"] = middle + [["atMs": 2_000, "type": "participant.unpinned", "participantId": "p-ana"]]
        #expect(try Self.problem(earlier, then: later)?.path.hasPrefix("$.events[1].") == true)
    }

    @Test func aParticipantReorderedIsAChange() throws {
        let earlier = Self.version()
        var later = Self.version()
        later["participants"] = [["id": "p-ben", "name": "Ben"], ["id": "p-ana", "name": "Ana"]]
        let problem = try #require(try Self.problem(earlier, then: later))
        #expect(problem.path == "$.participants[0].id" && problem.expected.contains("p-ana") && problem.found.contains("p-ben"), "\(problem)")
    }

    @Test func completeToMsGoingBackIsRefused() throws {
        let problem = try #require(try Self.problem(Self.version(completeToMs: 4_000), then: Self.version(completeToMs: 3_999)))
        #expect(problem.path == "$.recording.completeToMs")
        #expect(problem.expected.contains("at least 4000") && problem.found.contains("went back"), "\(problem)")
    }

    @Test func aMemberChangedIsNamedWhereverItIs() throws {
        var later = Self.version()
        later["sessionId"] = "s2"
        #expect(try Self.problem(Self.version(), then: later)?.path == "$.sessionId")

        later = Self.version()
        later["roles"] = ["host": ["canPublish": ["audio"]]]
        #expect(try Self.problem(Self.version(), then: later)?.path == "$.roles.host.canPublish[1]")

        later = Self.version()
        later["roles"] = nil
        #expect(try Self.problem(Self.version(), then: later)?.path == "$.roles")

        // A track keeps its members and layers; it may gain layers, not other members.
        later = Self.version()
        var tracks = later["tracks"] as! [[String: Any]]
        tracks[1]["startOffsetMs"] = 500
        later["tracks"] = tracks
        #expect(try Self.problem(Self.version(), then: later)?.path == "$.tracks[1].startOffsetMs")
        tracks = Self.version()["tracks"] as! [[String: Any]]
        tracks[0]["layers"] = Array((tracks[0]["layers"] as! [[String: Any]]).reversed())
        later["tracks"] = tracks
        #expect(try Self.problem(Self.version(), then: later)?.path == "$.tracks[0].layers[0].file")
    }

    @Test func onlyTheLastVersionLeavesRecordingOut() throws {
        #expect(try Self.problem(Self.version(), then: Self.version(completeToMs: nil, ended: true)) == nil)
        let early = try #require(try Self.problem(Self.version(), then: Self.version(completeToMs: nil)))
        #expect(early.path == "$.recording" && early.found.contains("session.ended"), "\(early)")
        // Nothing comes after the last version.
        #expect(try Self.problem(Self.version(completeToMs: nil, ended: true), then: Self.version(ended: true))?.path == "$.recording")
    }

    @Test func aRefusedVersionIsNotKeptAndBytesThatAreNotJSONAreLeftToTheReader() throws {
        var contract = RecorderContract(manifest: Self.manifest)
        try contract.check(Self.data(Self.version(completeToMs: 4_000)))
        try contract.check(Data("{\"format\": ".utf8))
        #expect(throws: CaptureError.self) { try contract.check(Self.data(Self.version(completeToMs: 3_000))) }
        #expect(throws: CaptureError.self) { try contract.check(Self.data(Self.version(completeToMs: 3_500))) }
        try contract.check(Self.data(Self.version(completeToMs: 4_000)))
    }

    @Test func mediaThatGrowIsActivityAndAFileThatShrankIsNamed() throws {
        let folder = ScratchDirectory("contract").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        var contract = RecorderContract(manifest: folder.appendingPathComponent("session.json"))
        try contract.check(Self.data(Self.version()))
        // Named but not there yet, or empty: as the contract allows, and nothing grew.
        let high = folder.appendingPathComponent("media/cam-high.webm")
        #expect(try contract.mediaGrew() == false)
        #expect(FileManager.default.createFile(atPath: high.path, contents: Data()))
        #expect(try contract.mediaGrew() == false)

        let writer = try FileHandle(forWritingTo: high)
        defer { try? writer.close() }
        try writer.write(contentsOf: Data(count: 100))
        #expect(try contract.mediaGrew() == true)
        #expect(try contract.mediaGrew() == false)
        try writer.write(contentsOf: Data(count: 10))
        #expect(try contract.mediaGrew() == true)
        #expect(contract.media.sizes["media/cam-high.webm"] == 110)

        try writer.truncate(atOffset: 50)
        let shrank = #expect(throws: CaptureError.self) { try contract.mediaGrew() }
        #expect(shrank?.problems.map(\.file) == [high.path])
        #expect(shrank?.problems.first.map { $0.expected.contains("110 bytes") && $0.found.contains("50 bytes") } == true, "\(String(describing: shrank))")

        try FileManager.default.removeItem(at: high)
        let gone = #expect(throws: CaptureError.self) { try contract.mediaGrew() }
        #expect(gone?.problems.first?.file == high.path && gone?.problems.first?.found.contains("no file") == true, "\(String(describing: gone))")
    }
}
