/// What `report.json` says about loudness: the target, what the mix would have measured, the gains
/// applied, and what the output measured (EBU R 128, on the mixed audio before AAC).
public struct LoudnessReport: Sendable, Codable, Equatable {
    /// Nil when normalisation is off.
    public var targetLUFS: Double?
    /// The output as it would have been without any gain (nil when off: the output is that).
    public var inputLUFS: Double?
    public var outputLUFS: Double?
    public var outputTruePeakDBTP: Double?
    /// Gain applied to each track before the mix, and to the mix, in dB.
    public var trackGainDB: [String: Double]
    public var masterGainDB: Double
    /// A followed run's (`compose --follow`, causal loudness): each track measured alone over the session, in LUFS.
    public var trackLUFS: [String: Double]?
}

extension LoudnessReport {
    /// The loudness pass's gains (nil when off) and what `audio`'s meter measured of the output.
    init(levels: LoudnessAnalysis.Result?, audio: FrameAudio?) {
        /// Nil for the meter's `-inf` (silence), which JSON cannot carry.
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        self.init(targetLUFS: levels?.targetLUFS, inputLUFS: levels?.inputLUFS,
                  outputLUFS: finite(audio?.outputLUFS), outputTruePeakDBTP: finite(audio?.outputTruePeakDBTP),
                  trackGainDB: levels?.trackGainDB ?? [:], masterGainDB: levels?.masterGainDB ?? 0)
    }
}
