public import StageMixPlan
import StageMixTime

/// What of a plan a chunk's frames show: the intervals over the chunk's output time, clipped to it,
/// and whether the poster is taken in it. A chunk encoded from the plan of a capture known so far
/// (`compose --follow`) is kept at the end only if the whole session's plan gives the same slice:
/// below `completeToMs` the events are final, so it does, unless something that looks at the whole
/// session (the poster's moment, a speaker turn heard later) moved.
public struct ChunkPlanSlice: Sendable, Equatable {
    public var intervals: [PlanInterval]
    public var posterFrame: Int?

    public init(plan: CompositionPlan, frames: Range<Int>) {
        let from = MediaTime.ms(atFrame: frames.lowerBound, fps: plan.fps)
        let to = MediaTime.ms(atFrame: frames.upperBound, fps: plan.fps)
        intervals = plan.intervals.compactMap { interval in
            guard interval.endMs > from, interval.startMs < to else { return nil }
            var clipped = interval
            clipped.startMs = max(interval.startMs, from)
            clipped.endMs = min(interval.endMs, to)
            return clipped
        }
        let poster = MediaTime.frame(atMs: ThumbnailWriter.posterTimeMs(plan), fps: plan.fps)
        posterFrame = frames.contains(poster) ? poster : nil
    }
}
