import StageMixPlan
import StageMixTime

/// Which interval of the plan each output frame shows, walked forward frame by frame from any frame.
struct FrameIntervals {
    private let plan: CompositionPlan
    private var index = 0

    init(plan: CompositionPlan) { self.plan = plan }

    /// The interval frame `n` shows; `n` never goes back.
    mutating func interval(atFrame n: Int) -> PlanInterval {
        let tMs = MediaTime.ms(atFrame: n, fps: plan.fps)
        while index + 1 < plan.intervals.count, plan.intervals[index].endMs <= tMs { index += 1 }
        return plan.intervals[index]
    }
}
