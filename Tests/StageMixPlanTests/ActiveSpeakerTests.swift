import StageMixTestSupport
import Foundation
import Testing
import StageMixLayout
@testable import StageMixPlan

/// The active speaker from microphone levels, and a speaker layout following it.
@Suite("Active speaker")
struct ActiveSpeakerTests {
    /// Levels per 100 ms: `talks` are (participant, from s, to s) at -20 dBFS, with a gap of 200 ms
    /// every second as between phrases; everyone else's microphone is heard at -70 dBFS (room noise).
    static func levels(seconds: Int, people: [String], talks: [(String, Double, Double)], gaps: Bool = true) -> SpeakerLevels {
        let hops = seconds * 10
        var levels = SpeakerLevels(hopCount: hops)
        for id in people { levels.levels[id] = [Float](repeating: -70, count: hops) }
        for (id, from, to) in talks {
            for h in Int(from * 10)..<min(hops, Int(to * 10)) where !(gaps && h % 10 >= 8) {
                levels.levels[id]![h] = -20
            }
        }
        return levels
    }

    static func switches(_ timeline: SpeakerTimeline) -> [String] {
        timeline.turns.map { "\($0.fromMs) \($0.participantId)" }
    }

    /// Ana talks 0-6 s, Ben 6-12 s (Ana coughs at 9 s for 0.4 s), Ana 12-18 s, then nobody for 7 s
    /// but for Ben's 0.5 s "mm-hm" at 21 s: three turns placed where each began, Ana kept through the silence.
    @Test func turnsAreFollowedCoughsAndSilenceAreNot() {
        let levels = Self.levels(seconds: 25, people: ["ana", "ben", "cy"], talks: [
            ("ana", 0, 6), ("ben", 6, 12), ("ana", 9, 9.4), ("ana", 12, 18), ("ben", 21, 21.5),
        ])
        let speakers = ActiveSpeakerDetector().speakers(from: levels, durationMs: 25_000)
        #expect(Self.switches(speakers) == ["0 ana", "6000 ben", "12000 ana"])
        #expect(speakers.turns.last?.toMs == 25_000, "the last speaker keeps the focus to the end")
        #expect(speakers.speaker(atMs: 9_200) == "ben", "a cough does not take the focus")
        #expect(speakers.speaker(atMs: 22_000) == "ana")
    }

    /// Two people talking over each other: the louder holds the focus; the quieter, talking as long,
    /// does not take it. And nobody talking at all means no speaker.
    @Test func theLouderTalkerWinsAndSilenceHasNoSpeaker() {
        var levels = Self.levels(seconds: 10, people: ["ana", "ben"], talks: [("ana", 0, 10), ("ben", 2, 10)], gaps: false)
        for h in 20..<100 { levels.levels["ben"]![h] = -30 }
        #expect(Self.switches(ActiveSpeakerDetector().speakers(from: levels, durationMs: 10_000)) == ["0 ana"])
        let quiet = Self.levels(seconds: 10, people: ["ana", "ben"], talks: [])
        #expect(ActiveSpeakerDetector().speakers(from: quiet, durationMs: 10_000).turns.isEmpty)
        // A microphone with a loud background (a fan at -40 dBFS): only its owner's voice above it counts.
        var noisy = Self.levels(seconds: 10, people: ["ana", "ben"], talks: [("ben", 5, 10)])
        noisy.levels["ana"] = [Float](repeating: -40, count: 100)
        #expect(Self.switches(ActiveSpeakerDetector().speakers(from: noisy, durationMs: 10_000)) == ["5000 ben"])
    }

    /// Ana talks, then leaves the stage at 5 s (her microphone no longer heard) and comes back silent
    /// at 10 s: her turn ends where she went, and coming back does not give her the focus again.
    @Test func aSpeakerWhoLeavesLosesTheFocus() {
        var levels = Self.levels(seconds: 15, people: ["ana", "ben"], talks: [("ana", 0, 5)])
        for h in 50..<100 { levels.levels["ana"]![h] = SpeakerLevels.silence }
        let speakers = ActiveSpeakerDetector().speakers(from: levels, durationMs: 15_000)
        #expect(speakers.turns == [.init(fromMs: 0, toMs: 5_000, participantId: "ana")])
        // Ben then talks from 7 s: he takes the focus from there.
        var later = levels
        for h in 70..<150 { later.levels["ben"]![h] = -20 }
        #expect(Self.switches(ActiveSpeakerDetector().speakers(from: later, durationMs: 15_000)) == ["0 ana", "7000 ben"])
    }

    /// Someone who talks the whole time still counts as talking, though their "background" is their voice.
    @Test func aConstantTalkerIsTalking() {
        let levels = Self.levels(seconds: 10, people: ["ana"], talks: [("ana", 0, 10)], gaps: false)
        #expect(Self.switches(ActiveSpeakerDetector().speakers(from: levels, durationMs: 10_000)) == ["0 ana"])
    }

    /// With a speaker layout the speaker's camera takes the large region; each change of speaker starts
    /// an interval; other layouts ignore the speakers.
    @Test func aSpeakerLayoutPutsTheSpeakerFirst() throws {
        var c = TestCapture()
        for id in ["ana", "ben", "cy"] { c.person(id); c.onStage(id, at: 0) }
        let capture = c.capture(endingAt: 30_000)
        let timeline = try StageTimeline(capture: capture)
        let speakers = SpeakerTimeline(turns: [.init(fromMs: 4_000, toMs: 12_000, participantId: "cy"),
                                               .init(fromMs: 12_000, toMs: 30_000, participantId: "ben")])
        let layout = try Layout.resolve("speaker")
        #expect(layout.focus == .speaker)
        let plan = CompositionPlan(capture: capture, timeline: timeline, layout: layout, speakers: speakers)
        func big(_ ms: Int) -> String? { plan.interval(atMs: ms)?.tiles.first { $0.region == "spotlight" }?.participantId }
        #expect(big(1_000) == "ana", "before anyone speaks: the pinned order")
        #expect(big(5_000) == "cy")
        #expect(big(20_000) == "ben")
        #expect(plan.intervals.map(\.startMs) == [0, 4_000, 12_000])
        #expect(plan.speakers == speakers)
        // The strip shows the others, in pin order.
        #expect(plan.interval(atMs: 5_000)?.tiles.filter { $0.region == "strip" }.map(\.participantId) == ["ana", "ben"])
        let spotlight = CompositionPlan(capture: capture, timeline: timeline, layout: try Layout.resolve("spotlight"), speakers: speakers)
        #expect(spotlight.intervals.count == 1 && spotlight.speakers == nil)
    }

    @Test func theLayoutFocusIsReadStrictly() throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("Layouts/spotlight.json"), encoding: .utf8)
        let speaker = try Layout.parse(Data(text.replacingOccurrences(of: "{\n  \"name\": \"spotlight\",", with: "{\n  \"name\": \"s\", \"focus\": \"speaker\",").utf8), file: "s.json")
        #expect(speaker.focus == .speaker)
        #expect(try Layout.parse(Data(text.utf8), file: "s.json").focus == .pinned)
        #expect(throws: LayoutError.self) {
            try Layout.parse(Data(text.replacingOccurrences(of: "{\n  \"name\": \"spotlight\",", with: "{\n  \"name\": \"s\", \"focus\": \"loudest\",").utf8), file: "s.json")
        }
    }
}
