import StageMixCapture
/// How loud each participant's microphone was, per 100 ms of the composition's time, all at once: the
/// hop length and level scale the active-speaker decision uses, and a whole series to hand to
/// ``ActiveSpeakerDetector/speakers(from:durationMs:)`` where one is already gathered (tests). The
/// audio-only pass itself feeds the detector hop by hop and never holds a series.
public struct SpeakerLevels: Sendable, Hashable {
    /// The length of one level.
    public static let hopMs = 100
    /// What a hop whose microphone was not heard (muted, off stage, not subscribed) reads as.
    public static let silence: Float = -120
    /// The lowest level of a microphone that was heard: digital silence on a live microphone.
    public static let quietest: Float = -100

    /// Participant id to one level (RMS, dBFS) per hop from 0; missing hops are silence.
    public var levels: [String: [Float]]
    public var hopCount: Int

    public init(hopCount: Int, levels: [String: [Float]] = [:]) {
        self.hopCount = hopCount
        self.levels = levels
    }

    /// The level of `participantId` in hop `hop`.
    public func level(_ participantId: String, hop: Int) -> Float {
        guard let series = levels[participantId], hop < series.count else { return Self.silence }
        return series[hop]
    }
}
