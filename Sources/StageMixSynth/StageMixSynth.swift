// StageMixSynth
