import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixSynth

@Suite struct ScenarioTests {
    /// The manifest a scenario implies, read back by the contract's reader (no media written).
    func capture(of scenario: Scenario) throws -> Capture {
        let data = try CaptureSynthesizer().manifestData(for: scenario)
        return try CaptureReader.parse(data, directory: URL(fileURLWithPath: "/nonexistent"))
    }

    @Test(arguments: Scenario.builtinNames)
    func builtinManifestsAreValidCaptures(_ name: String) throws {
        let scenario = try #require(Scenario.builtin(name))
        let capture = try capture(of: scenario)
        #expect(capture.durationMs == scenario.durationMs)
        #expect(capture.events.last?.action == .sessionEnded)
        for track in capture.tracks {
            #expect(track.startOffsetMs == TrackMediaTimeline.all(in: scenario)[track.id]?.startOffsetMs)
        }
    }

    @Test func panelInvitationsAndStage() throws {
        let timeline = try StageTimeline(capture: try capture(of: .panel))
        let outcomes = Dictionary(uniqueKeysWithValues: timeline.invitations.map { ($0.receiverId, $0.outcome) })
        #expect(outcomes == ["p-omar": .accepted, "p-lena": .declined, "p-kai": .expired])
        let omar = try #require(TrackMediaTimeline.all(in: .panel)["TR_omar_cam"])
        #expect(omar.published == [4_500..<27_000])
        #expect(omar.paused == [13_000..<19_000])
        let frames = omar.videoFrames(frameRate: 30)
        #expect(frames.first?.index == 0 && frames.first?.sessionMs == 4_500)
        #expect(frames.filter(\.resumes).map(\.sessionMs) == [19_000])
        #expect(!frames.contains { (13_000.0..<19_000).contains($0.sessionMs) })
    }

    @Test func screenShareIsOneFullHDLayerInItsOwnColour() throws {
        let scenario = Scenario.screenshare
        let capture = try capture(of: scenario)
        let screen = try #require(capture.tracks.first { $0.source == .screenShare })
        #expect(screen.layers.map { "\($0.quality) \($0.width)x\($0.height)" } == ["high 1920x1080"])
        #expect(screen.startOffsetMs == 5_000)
        #expect(TrackMediaTimeline.all(in: scenario)[screen.id]?.published == [5_000..<15_000])
        #expect(!Palette.colors.contains(Palette.screenShare))
    }

    @Test func benchDurationOverrideMakesTheLongJob() throws {
        let bench = try #require(Scenario.builtin("bench4")).withDuration(600_000)
        let capture = try capture(of: bench)
        #expect(capture.durationMs == 600_000)
        #expect(capture.tracks.count == 8)
        #expect(capture.tracks.filter { $0.kind == .video }.allSatisfy { $0.layers.count == 3 })
    }

    @Test func bench16ColoursAndTonesAreDistinctAndNotHarmonics() throws {
        let people = try #require(Scenario.builtin("bench16")).participants
        #expect(Set(people.map(\.color)).count == 16)
        let tones = people.compactMap(\.toneHz)
        #expect(Set(tones).count == 16)
        for a in tones { for b in tones where b > a {
            #expect((b / a).rounded() != b / a, "\(b) Hz is a harmonic of \(a) Hz")
        } }
    }

    @Test func scenarioJSONDecodesWithDefaults() throws {
        let json = """
        {"sessionId": "s1", "durationMs": 2000,
         "participants": [{"id": "p-a", "name": "A", "color": "#112233", "toneHz": null,
                           "tracks": [{"id": "TR_a_cam", "source": "camera",
                                       "layers": [{"quality": "low", "width": 160, "height": 90}]}]}],
         "events": [{"atMs": 0, "type": "participant.joined", "participantId": "p-a", "mode": "SEND_AND_RECV"},
                    {"atMs": 0, "type": "track.published", "trackId": "TR_a_cam"}]}
        """
        let scenario = try Scenario.decode(Data(json.utf8))
        #expect(scenario.frameRate == 30 && scenario.keyframeInterval == 30)
        #expect(scenario.problems.isEmpty)
        let capture = try capture(of: scenario)
        #expect(capture.tracks.first?.layers.first?.file == "media/TR_a_cam-low.webm")
    }

    @Test func badScenariosAreRefusedBeforeAnyMedia() throws {
        var scenario = Scenario.panel
        scenario.participants[0].color = "red"
        scenario.participants[1].tracks[0].layers = [ScenarioLayer(quality: .low, width: 321, height: 180)]
        #expect(scenario.problems.count == 2)
        let scratch = ScratchDirectory("bad")
        defer { scratch.remove() }
        let dir = scratch.file("bad")
        #expect(throws: SynthError.self) { try CaptureSynthesizer().synthesize(scenario, to: dir) }
        #expect(!FileManager.default.fileExists(atPath: dir.path))

        var broken = Scenario.panel
        broken.events.append(.published(29_000, "TR_nobody"))
        #expect(throws: CaptureError.self) { try CaptureSynthesizer().synthesize(broken, to: dir) }
        #expect(throws: SynthError.self) { try Scenario.decode(Data(#"{"sessionId": "x"}"#.utf8)) }
    }
}
