import ArgumentParser
import Foundation
import StageMixCapture
import StageMixLayout
import StageMixOptions
import StageMixPipeline
import StageMixPlan

/// The phases of a chunked composition that a queue worker runs as `stagemix compose` (hidden
/// `--chunk-phase`): `plan` plans once and writes the work folder's `run.json`, then says how many
/// chunks there are on stdout; `join` plans again from it (the same plan, the speaker pass not run
/// again) and joins the chunks the workers encoded, and the session's audio they encoded beside them,
/// into the output. The chunks themselves are `stagemix compose-chunk --work W --index K --into DIR`,
/// the audio `stagemix compose-chunk --work W --audio --into DIR`.
enum QueuePhase: String, ExpressibleByArgument, CaseIterable {
    case plan
    case join

    static func plan(capture: String, options: ComposeOptions, work: URL,
                     shouldStop: @escaping @Sendable () -> Bool) throws -> (Capture, Layout, PlanDocument) {
        let heard = HeardTurns()
        let pass = SpeakerAnalysis.planningPass(shouldStop: shouldStop)
        let planned = try CompositionInput.plan(capture: CaptureSources.source(at: capture), options: options) { capture, timeline in
            let turns = try pass(capture, timeline)
            heard.set(turns)
            return turns
        }
        let plan = planned.2.plan
        let ranges = ChunkRun.ranges(plan: plan, options: options)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let run = ChunkRun(capture: capture, options: options, plan: plan, speakers: heard.turns, ranges: ranges)
        try run.write(in: work)
        print(ComposeChild.ChunksLine(count: ranges.count, audio: run.audioApart == true).text)
        return planned
    }

    static func replan(capture: String, options: ComposeOptions, work: URL) throws -> (Capture, Layout, PlanDocument) {
        let run = try ChunkRun.read(in: work)
        let speakers = run.speakers
        let planned = try CompositionInput.plan(capture: CaptureSources.source(at: capture), options: options,
                                                speakers: speakers.map { turns in { _, _ in turns } })
        guard planned.2.plan == run.plan else {
            throw ChunkRunError("the plan of \(capture) is not the one its chunks were encoded from (\(work.path)/\(ChunkRun.fileName)): the capture or the options changed since")
        }
        return planned
    }
}

/// The speaker pass's turns, kept as the planner hands them over (from its own thread).
private final class HeardTurns: @unchecked Sendable {
    private let lock = NSLock()
    private var value: SpeakerTimeline?
    var turns: SpeakerTimeline? { lock.withLock { value } }
    func set(_ turns: SpeakerTimeline) { lock.withLock { value = turns } }
}
