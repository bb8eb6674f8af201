import StageMixPlan

/// Where an output sample is read in the session: later by what edits cut before it (48 samples a ms).
extension PlanInterval {
    func sessionSample(_ sample: Int) -> Int { sample + (sessionOffsetMs ?? 0) * AudioTrackReader.sampleRate / 1000 }
}

