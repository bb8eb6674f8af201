import Foundation
import Testing
import StageMixCapture
import StageMixMedia
@testable import StageMixPipeline
import StageMixTestSupport

/// `stagemix replay`: a finished capture played out as a recorder writes a capture in progress. Every
/// version of `session.json` seen while it runs is a valid capture in progress that only appends to the
/// one before, with every sample before its `completeToMs` already in the media files; the end is the
/// capture itself again (the same plan, the same packets).
@Suite("replay: a recorder anyone can run", .serialized)
struct ReplayTests {
    typealias CLI = CommandLineTests

    /// The last packet's session time in a (growing) file before `limit` seconds (its first packet's
    /// time is the track's offset); -1 when there is none.
    static func writtenSeconds(_ file: URL, startOffsetMs: Int, below limit: Double = .infinity) -> Double {
        guard let demuxer = try? Demuxer(url: file) else { return -1 }
        var first: Double?, last = -1.0
        while let packet = try? demuxer.readPacket() {
            guard let t = packet.ptsSeconds ?? packet.dtsSeconds else { continue }
            first = first ?? t
            let at = Double(startOffsetMs) / 1000 + t - (first ?? t)
            if at < limit { last = max(last, at) }
        }
        return last
    }

    @Test func theSamplePlaysOutAsACaptureInProgressAndEndsAsItself() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sample = Repository.root.appendingPathComponent("Samples/panel")
        let live = root.appendingPathComponent("live")
        let replay = Process()
        replay.executableURL = CLI.executable
        replay.arguments = ["replay", sample.path, "--out", live.path, "--speed", "6", "--tick", "0.25"]
        replay.standardOutput = FileHandle.nullDevice
        replay.standardError = FileHandle.nullDevice
        try replay.run()

        let original = try CaptureFolder(sample).capture()
        var versions: [(completeToMs: Int, events: Int)] = []
        var previous: [String: Any]?
        var lastText = Data()
        while replay.isRunning || versions.isEmpty {
            defer { Thread.sleep(forTimeInterval: 0.03) }
            guard let data = FileManager.default.contents(atPath: live.appendingPathComponent("session.json").path), data != lastText else { continue }
            lastText = data
            guard let capture = try? CaptureReader.parse(data, directory: live, inProgress: .knownSoFar), let completeToMs = capture.completeToMs else { continue }
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let events = document["events"] as? [[String: Any]] ?? []
            // Append only: what an earlier version said stays, in its order.
            if let previous {
                let before = previous["events"] as? [[String: Any]] ?? []
                #expect(events.count >= before.count)
                #expect(NSArray(array: Array(events.prefix(before.count))).isEqual(to: before), "an event changed at \(completeToMs) ms")
                #expect(completeToMs >= ((previous["recording"] as? [String: Any])?["completeToMs"] as? Int ?? 0))
            }
            previous = document
            versions.append((completeToMs, events.count))
            // Every sample before completeToMs is in its file (the media are written first).
            for track in capture.tracks where capture.events.contains(where: { $0.action == .trackPublished(trackId: track.id) }) {
                let whole = try #require(original.tracks.first { $0.id == track.id })
                for (file, offset) in track.kind == .audio ? [(track.file ?? "", track.startOffsetMs)] : track.layers.map({ ($0.file, track.startOffsetMs(of: $0)) }) {
                    // The last sample before completeToMs in the original (a paused camera sends nothing for a while).
                    let limit = Double(completeToMs) / 1000
                    let needed = Self.writtenSeconds(sample.appendingPathComponent(file), startOffsetMs: offset, below: limit)
                    let written = Self.writtenSeconds(live.appendingPathComponent(file), startOffsetMs: offset, below: limit)
                    #expect(written == needed, "\(whole.id) \(file): written to \(written) s, \(needed) s due at completeToMs \(completeToMs)")
                }
            }
        }
        replay.waitUntilExit()
        #expect(replay.terminationStatus == 0)
        #expect(versions.count >= 5, "\(versions)")
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0.completeToMs <= $1.completeToMs })

        // The end: the finished capture again, the same plan and every packet.
        let plans = try [sample, live].map { try CLI.run(["plan", $0.path, "--json"]) }
        #expect(plans.allSatisfy { $0.status == 0 } && plans[0].stdout == plans[1].stdout)
        for track in original.tracks {
            for file in track.kind == .audio ? [track.file ?? ""] : track.layers.map(\.file) {
                #expect(Self.writtenSeconds(live.appendingPathComponent(file), startOffsetMs: 0) == Self.writtenSeconds(sample.appendingPathComponent(file), startOffsetMs: 0), "\(file)")
            }
        }
        // Never over a folder that exists.
        let again = try CLI.run(["replay", sample.path, "--out", live.path])
        #expect(again.status == 73, "\(again.stderr)")
        #expect(try CaptureFolder(live).capture().sessionId == original.sessionId)
    }

    @Test func everyVersionKeepsTheContractWhateverOrderTheDocumentListsParticipantsIn() throws {
        // Ben is listed second and joins first; Ana's microphone is listed before Ben's camera.
        let document: [String: Any] = [
            "format": "stagemix.capture/1", "sessionId": "s", "startedAt": "2026-11-20T18:00:00.000Z",
            "participants": [["id": "p-ana", "name": "Ana"], ["id": "p-ben", "name": "Ben"], ["id": "p-cy", "name": "Cy"]],
            "tracks": [["id": "TR_ana", "participantId": "p-ana", "kind": "audio", "source": "microphone", "file": "ana.ogg"],
                       ["id": "TR_ben", "participantId": "p-ben", "kind": "audio", "source": "microphone", "file": "ben.ogg"],
                       ["id": "TR_cy", "participantId": "p-cy", "kind": "audio", "source": "microphone", "file": "cy.ogg"]],
            "events": [["atMs": 0, "type": "participant.joined", "participantId": "p-ben", "mode": "SEND_AND_RECV"],
                       ["atMs": 1_000, "type": "participant.joined", "participantId": "p-ana", "mode": "SEND_AND_RECV"],
                       ["atMs": 2_000, "type": "participant.joined", "participantId": "p-cy", "mode": "SEND_AND_RECV"],
                       ["atMs": 3_000, "type": "session.ended"]],
        ]
        let manifest = try ReplayManifest(data: JSONSerialization.data(withJSONObject: document))
        var contract = RecorderContract(manifest: URL(fileURLWithPath: "/nonexistent/session.json"))
        var listed: [Int] = []
        for completeToMs in [0, 500, 1_500, 2_500, nil] as [Int?] {
            let version = manifest.version(completeToMs: completeToMs)
            let data = try JSONSerialization.data(withJSONObject: version)
            try contract.check(data)
            _ = try CaptureReader.parse(data, directory: URL(fileURLWithPath: "/nonexistent"), inProgress: .knownSoFar)
            listed.append((version["participants"] as? [Any])?.count ?? -1)
        }
        #expect(listed == [0, 2, 2, 3, 3])
    }
}
