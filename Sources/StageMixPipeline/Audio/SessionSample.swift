import StageMixPlan
import StageMixTime

/// Where an output sample is read in the session: later by what edits cut before it.
extension PlanInterval {
    func sessionSample(_ sample: Int) -> Int { MediaTime.sessionSample(sample, sessionOffsetMs: sessionOffsetMs ?? 0) }
}
