import Foundation
import Testing
import StageMixCapture
import StageMixPlan
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
        var events: [ManifestEvent] = []
        for (p, k) in zip(people, ["ana", "ben", "cy"]) {
            events += [.joined(0, p.id, role: "host"), .pinned(0, p.id), .published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")]
        }
        return Scenario(sessionId: "speakers", durationMs: 16_000, roles: CaptureManifest.Role.stageRoles, participants: people, events: events)
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

    /// Real speech, not tones: three voices of espeak-ng (from Debian) taking turns, Ana 0-5 s, Ben
    /// 5-10 s (Ana says "hm" at 7 s), Cy 10-13 s, then silence, each over a little room noise.
    @Test func speechFromAnotherToolIsFollowedToo() throws {
        let remade = try RemadeCapture(codec: .vp8, scenario: Self.scenario())
        defer { remade.cleanup() }
        let words = "The quarterly numbers look strong, and we should talk about the roadmap for next year before we take questions."
        let turns = [("ana", "en-us", 0, 5.0), ("ben", "en-gb+m3", 5, 5.0), ("cy", "en+f2", 10, 3.0)]
        for (k, voice, at, seconds) in turns {
            let speech = remade.root.appendingPathComponent("\(k).wav")
            try Self.espeak(voice: voice, text: words, to: speech)
            let file = try #require(remade.track("TR_\(k)_mic").file)
            let renamed = (file as NSString).deletingPathExtension + "-speech.ogg"
            var inputs = ["-i", speech.path, "-f", "lavfi", "-i", "anoisesrc=colour=pink:amplitude=0.003:sample_rate=48000:duration=16"]
            var graph = "[0]atrim=0:\(seconds),adelay=\(at * 1000):all=1,apad=whole_dur=16[v];[v][1]amix=inputs=2:duration=first,volume=2"
            if k == "ana" {
                let hm = remade.root.appendingPathComponent("hm.wav")
                try Self.espeak(voice: voice, text: "hm", to: hm)
                inputs += ["-i", hm.path]
                graph = "[0]atrim=0:\(seconds),adelay=0:all=1,apad=whole_dur=16[v];[2]adelay=7000:all=1,apad=whole_dur=16[c];"
                    + "[v][1][c]amix=inputs=3:duration=first,volume=3"
            }
            try RemadeCapture.ffmpeg(inputs + ["-filter_complex", graph, "-ar", "48000", "-ac", "1", "-c:a", "libopus", "-b:a", "32k",
                                               remade.directory.appendingPathComponent(renamed).path])
            try remade.rename(file, to: renamed)
        }
        let capture = try CaptureReader.read(directory: remade.directory)
        let speakers = try SpeakerAnalysis(capture: capture, timeline: try StageTimeline(capture: capture)).speakers()
        #expect(speakers.turns.map(\.participantId) == ["p-ana", "p-ben", "p-cy"], "no switch on the \"hm\": \(speakers.turns)")
        for (turn, truth) in zip(speakers.turns, [0, 5_000, 10_000]) {
            #expect(abs(turn.fromMs - truth) <= 2_000, "\(turn.participantId) from \(turn.fromMs) ms, talking from \(truth)")
        }
    }

    static func espeak(voice: String, text: String, to url: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-v", voice, "-s", "160", "-w", url.path, text]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("espeak-ng -v \(voice) failed") }
    }
}
