import Foundation
import StageMixCapture
import StageMixPlan
import StageMixLayout

/// One fuzz input taken as a `session.json`: parsed and validated, and when valid, planned with the
/// grid layout and rendered as `stagemix plan` would. Any input may be rejected; none may trap.
enum CaptureParserFuzz {
    /// Where the manifest's media paths point: a directory that does not exist, so no media is read.
    static let directory = URL(fileURLWithPath: "/nonexistent/stagemix-fuzz-capture")
    static let layout = Layout.builtin(named: "grid")!

    static func run(_ manifest: Data) {
        let capture: Capture
        do {
            capture = try CaptureReader.parse(manifest, directory: directory)
        } catch {
            _ = error.description
            return
        }
        _ = CaptureReader.missingMedia(in: capture)
        do {
            let document = try PlanDocument(capture: capture, layout: layout)
            let json: Data = try PlanDocument.encode(document)
            _ = json
            _ = PlanTextReport.render(document)
        } catch {
            _ = "\(error)"
        }
        // The same stage edited and followed by a speaker, with times drawn from the input's own bytes:
        // trims, cuts, exclusions and speaker turns anywhere in (and past) the session.
        do {
            let (edits, turns) = Self.edits(drawnFrom: manifest, capture: capture)
            let document = try PlanDocument(capture: capture, layout: speakerLayout, edits: edits, speakers: { _ in turns })
            let json: Data = try PlanDocument.encode(document)
            _ = json
            _ = PlanTextReport.render(document)
            _ = StageEvent.of(document.timeline)
        } catch {
            _ = "\(error)"
        }
    }

    static let speakerLayout = Layout.builtin(named: "speaker")!

    /// Edits and speaker turns whose times come from a hash of `bytes`: arbitrary, but the same for one input.
    static func edits(drawnFrom bytes: Data, capture: Capture) -> (SessionEdits, SpeakerTimeline) {
        var state = bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return bound <= 0 ? 0 : Int((state >> 33) % UInt64(bound))
        }
        let span = max(1, capture.durationMs + 2_000)
        func range() -> SessionEdits.Span {
            let from = next(span)
            return .init(fromMs: from, toMs: from + 1 + next(span / 2 + 1))
        }
        let people = capture.participants.map(\.id)
        var edits = SessionEdits()
        for _ in 0..<next(4) { edits.cut.append(range()) }
        if next(2) == 1 { edits.trim = .init(startMs: next(2) == 1 ? next(span) : nil, endMs: next(2) == 1 ? next(span) + 1 : nil) }
        if let someone = people.isEmpty ? nil : people[next(people.count)], next(2) == 1 {
            edits.exclude.append(.init(participantId: someone, spans: next(2) == 1 ? nil : [range(), range()]))
            edits.mute.append(.init(participantId: next(2) == 1 ? someone : nil, span: range()))
        }
        if let trim = edits.trim, let start = trim.startMs, let end = trim.endMs, end <= start { edits.trim?.endMs = nil }
        // As the edit file's reader: something of the session must be left.
        if OutputClock(edits: edits, sessionDurationMs: capture.durationMs).durationMs == 0 { edits.cut = []; edits.trim = nil }
        var turns: [SpeakerTimeline.Turn] = []
        var at = next(span / 4 + 1)
        while !people.isEmpty, at < span, turns.count < 16 {
            let end = at + 1 + next(span / 3 + 1)
            turns.append(.init(fromMs: at, toMs: end, participantId: people[next(people.count)]))
            at = end + next(2) * next(1_000)
        }
        return (edits, SpeakerTimeline(turns: turns))
    }
}
