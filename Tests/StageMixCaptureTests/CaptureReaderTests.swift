import StageMixTestSupport
import StageMixJSON
import Foundation
import Testing
@testable import StageMixCapture

@Suite struct CaptureReaderTests {
    @Test func validCaptureParsesIntoTheExpectedValues() throws {
        let capture = try CaptureFixture.valid.parse()
        #expect(capture.sessionId == "ls-2026-11-20-panel")
        #expect(capture.startedAt == Date(timeIntervalSince1970: 1_795_197_600)) // 2026-11-20T18:00:00Z
        #expect(capture.directory.path == CaptureFixture.nowhere.path)
        #expect(capture.roles?["host"] == Role(canPublish: [.audio, .video, .screen]))
        #expect(capture.roles?["viewer"] == Role(canPublish: []))
        #expect(capture.participants == [Participant(id: "p-maya", name: "Maya"), Participant(id: "p-omar", name: "Omar")])
        #expect(capture.warnings.isEmpty)

        let cam = try #require(capture.track("TR_maya_cam"))
        #expect(cam.kind == .video && cam.source == .camera && cam.file == nil)
        #expect(cam.layers.map(\.quality) == [.low, .medium, .high])
        #expect(cam.layer(.high) == TrackLayer(quality: .high, width: 1280, height: 720, file: "media/maya-cam-high.webm"))
        let omarCam = try #require(capture.track("TR_omar_cam"))
        #expect(omarCam.startOffsetMs == 1500)
        #expect(omarCam.startOffsetMs(of: omarCam.layers[0]) == 1600)
        let omarMic = try #require(capture.track("TR_omar_mic"))
        #expect(omarMic.startOffsetMs == 0, "absent startOffsetMs means 0")
        #expect(omarMic.file == "./media/omar-mic.ogg" && omarMic.layers.isEmpty)

        #expect(capture.events.count == 21)
        #expect(capture.durationMs == 20000)
        #expect(capture.events[0] == SessionEvent(atMs: 0, .participantJoined(participantId: "p-maya", mode: .sendAndReceive, role: "host")))
        #expect(capture.events[5] == SessionEvent(atMs: 2000, .pubsub(PubSubMessage(
            topic: "HOSTREQUESTED", senderId: "p-maya",
            payload: ["receiverId": "p-omar", "senderId": "p-maya", "senderName": "Maya", "attempt": "1", "urgent": "true"]))))
        #expect(capture.events[6].action == .pubsub(PubSubMessage(topic: "ACK", senderId: "p-omar", message: "ACCEPTED", payload: ["receiverId": "p-maya"])))
        #expect(capture.events[7].action == .roleChanged(participantId: "p-omar", role: "speaker", forced: false))
        #expect(capture.events[8].action == .modeChanged(participantId: "p-omar", mode: .sendAndReceive))
        #expect(capture.events[12].action == .trackMuted(trackId: "TR_omar_mic"))
        #expect(capture.events[14].action == .streamState(trackId: "TR_omar_cam", state: .paused))
        #expect(capture.events[16].action == .subscriptionPermission(trackId: "TR_omar_cam", allowed: false))
        #expect(capture.events[17].action == .trackUnpublished(trackId: "TR_omar_cam"))
        #expect(capture.events[19].action == .participantLeft(participantId: "p-omar"))
        #expect(capture.events[20] == SessionEvent(atMs: 20000, .sessionEnded))
    }

    @Test func withoutRolesAnyRoleNameIsAcceptedAndNoneIsNeeded() throws {
        var fixture = CaptureFixture.valid
        fixture.document["roles"] = nil
        fixture.events[0]["role"] = "anything"
        fixture.events[4]["role"] = nil
        let capture = try fixture.parse()
        #expect(capture.roles == nil)
        #expect(capture.events[4].action == .participantJoined(participantId: "p-omar", mode: .signallingOnly, role: nil))
    }

    @Test func deprecatedModeNamesAreWarningsNotErrors() throws {
        var fixture = CaptureFixture.valid
        fixture.events[4]["mode"] = "VIEWER"
        fixture.events[8]["mode"] = "CONFERENCE"
        let capture = try fixture.parse()
        #expect(capture.events[4].action == .participantJoined(participantId: "p-omar", mode: .signallingOnly, role: "viewer"))
        #expect(capture.events[8].action == .modeChanged(participantId: "p-omar", mode: .sendAndReceive))
        #expect(capture.warnings.map(\.path) == ["$.events[4].mode", "$.events[8].mode"])
        #expect(capture.warnings[1].found.contains("CONFERENCE"))
    }

    @Test(arguments: [
        ("2026-11-20T18:00:00Z", 1_795_197_600.0),
        ("2026-11-20T18:00:00.5Z", 1_795_197_600.5),
        ("2026-11-20T18:00:00.123456789z", 1_795_197_600.123456789),
        ("2026-11-20t18:00:00+00:00", 1_795_197_600.0),
        ("2028-02-29T00:00:00Z", 1_835_395_200.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func utcTimestampsAreAccepted(text: String, seconds: Double) throws {
        let parsed = try #require(RFC3339Timestamp.parseUTC(text))
        #expect(abs(parsed.date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: [
        "2026-11-20T18:00:00+01:00", "2026-11-20T18:00:00-00:00", "2026-11-20T18:00:00", "2026-11-20 18:00:00Z",
        "2026-11-20T18:00:00.Z", "2027-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-20T24:00:00Z",
        "2026-11-20T18:00:60Z", "20261120T180000Z", "",
    ])
    func otherTimestampsAreRejected(text: String) {
        #expect(RFC3339Timestamp.parseUTC(text) == nil)
    }

    @Test func everyProblemIsReportedAtOnce() {
        var fixture = CaptureFixture.valid
        fixture.document["format"] = "stagemix.capture/2"
        fixture.document["startedAt"] = "yesterday"
        fixture.tracks[1]["source"] = "camera"
        var layers = fixture.layers(0)
        layers[2]["width"] = -640
        layers[1]["file"] = "../../etc/passwd"
        fixture.setLayers(0, layers)
        fixture.events[5]["atMs"] = 500
        fixture.events[12]["type"] = "track.exploded"
        fixture.events.removeLast()
        let problems = fixture.problems()
        #expect(problems.map(\.path) == [
            "$.format", "$.startedAt", "$.tracks[0].layers[1].file", "$.tracks[0].layers[2].width", "$.tracks[1].source",
            "$.events[12].type", "$.events[5].atMs", "$.events",
        ])
        #expect(problems.allSatisfy { $0.file == "session.json" })
        #expect(problems[0].found == "the string \"stagemix.capture/2\"")
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        let data = Data("{\n  \"format\": \"stagemix.capture/1\",\n  \"sessionId\": ,\n}".utf8)
        #expect {
            try CaptureReader.parse(data, directory: CaptureFixture.nowhere)
        } throws: { error in
            let problems = (error as! CaptureError).problems
            return problems.count == 1 && problems[0].path == "$" && problems[0].expected.contains("line 3, column 16")
                && problems[0].found == "','"
        }
    }

    @Test func aDocumentThatIsNotAnObjectIsRejected() {
        #expect(throws: CaptureError.self) { try CaptureReader.parse(Data("[]".utf8), directory: CaptureFixture.nowhere) }
        do {
            _ = try CaptureReader.parse(Data("[]".utf8), directory: CaptureFixture.nowhere)
        } catch {
            #expect(error.problems.map(\.path) == ["$"])
        }
    }

    @Test func duplicateMemberNamesAreProblems() throws {
        var text = String(decoding: CaptureFixture.valid.data, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"sessionId\":", with: "\"sessionId\":\"first\",\"sessionId\":")
        do {
            _ = try CaptureReader.parse(Data(text.utf8), directory: CaptureFixture.nowhere)
            Issue.record("a duplicated sessionId was accepted")
        } catch {
            #expect(error.problems.map(\.path) == ["$.sessionId"])
        }
    }

    @Test func readLoadsSessionJSONFromTheDirectory() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(String(decoding: CaptureFixture.valid.data, as: UTF8.self), to: "session.json")
        let capture = try CaptureReader.read(directory: scratch.url)
        #expect(capture.sessionId == "ls-2026-11-20-panel")
        #expect(capture.mediaURL("media/maya-mic.ogg").path == scratch.url.appendingPathComponent("media/maya-mic.ogg").path)
    }

    @Test func readReportsAMissingManifest() {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        do {
            _ = try CaptureReader.read(directory: scratch.url)
            Issue.record("a directory without session.json was accepted")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.path == "$")
            #expect(error.problems.first?.found == "no such file")
        }
    }
}
