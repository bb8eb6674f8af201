import Foundation
import Testing
import StageMixCore
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// The speaker layout on a capture whose microphones the ffmpeg CLI wrote with people taking turns:
/// the speaker timeline found from the decoded audio, and the large region showing who talks.
@Suite("Active speaker end to end", .serialized)
struct ActiveSpeakerEndToEndTests {
    /// Ana, Ben and Cy on stage from 0, all pinned at 0 (so the pinned order alone would show Ana).
    static func scenario() -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let people = ["ana", "ben", "cy"].enumerated().map { i, k in
            ScenarioParticipant.palette(i, id: "p-\(k)", name: k.capitalized, tracks: tracks(k))
        }
        var events: [ScenarioEvent] = []
        for (p, k) in zip(people, ["ana", "ben", "cy"]) {
            events += [.joined(0, p.id, role: "host"), .pinned(0, p.id), .published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")]
        }
        return Scenario(sessionId: "speakers", durationMs: 16_000, roles: ScenarioRole.stageRoles, participants: people, events: events)
    }

    /// Ana talks 0-5 s, Ben 5-10 s (Ana coughs at 7 s for 0.4 s), Cy 10-13 s, then silence to 16 s;
    /// each voice pauses 0.2 s every second, as between phrases.
    @Test func theLargeRegionFollowsWhoIsTalking() throws {
        let remade = try RemadeCapture(codec: .vp8, scenario: Self.scenario())
        defer { remade.cleanup() }
        let talks = ["ana": "between(t,0,5)+between(t,7,7.4)", "ben": "between(t,5,10)", "cy": "between(t,10,13)"]
        for (k, when) in talks {
            let tone = try #require(remade.participant("p-\(k)").toneHz)
            let file = try #require(remade.track("TR_\(k)_mic").file)
            let renamed = (file as NSString).deletingPathExtension + "-turns.ogg"
            try RemadeCapture.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=\(tone):sample_rate=48000:duration=16",
                                      "-af", "volume='if(gt(\(when),0)*lt(mod(t,1),0.8),0.5,0)':eval=frame",
                                      "-ac", "1", "-c:a", "libopus", "-b:a", "32k", remade.directory.appendingPathComponent(renamed).path])
            try remade.rename(file, to: renamed)
        }
        let composed = try remade.compose(layout: "speaker")
        let turns = try #require(composed.document.plan.speakers).turns
        #expect(turns.map(\.participantId) == ["p-ana", "p-ben", "p-cy"], "no switch on the cough: \(turns)")
        for (turn, truth) in zip(turns, [0, 5_000, 10_000]) {
            #expect(abs(turn.fromMs - truth) <= 2_000, "\(turn.participantId) from \(turn.fromMs) ms, talking from \(truth)")
        }
        #expect(turns.last?.toMs == 16_000, "Cy keeps the focus through the silence")

        let colours = try Dictionary(uniqueKeysWithValues: ["p-ana", "p-ben", "p-cy"].map { ($0, try RGBColor(hex: remade.participant($0).color)) })
        for (t, speaker) in [(3.0, "p-ana"), (7.2, "p-ben"), (8.5, "p-ben"), (12.0, "p-cy"), (15.5, "p-cy")] {
            let tile = try #require(composed.document.plan.interval(atMs: Int(t * 1000))?.tiles.first { $0.region == "spotlight" })
            #expect(tile.participantId == speaker, "t=\(t): \(tile.participantId) in the large region")
            let colour = try composed.tile(speaker, at: t).colour
            #expect(colour.isClose(to: colours[speaker]!, tolerance: 24), "t=\(t) \(speaker): \(colour)")
        }
    }
}
