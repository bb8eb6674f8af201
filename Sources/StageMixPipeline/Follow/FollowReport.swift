/// `report.json`'s `followed`, for a run that composed the session while it was recorded
/// (`compose --follow`): how much it did while the session went on, the lag it kept, and how the
/// loudness was set. Absent for a run over a finished capture.
public struct FollowReport: Sendable, Codable, Equatable {
    /// Chunks composed while the session was recorded and kept, of all the run's chunks.
    public var chunksWhileRecorded: Int
    public var chunks: Int
    /// The largest gap between the recording's `completeToMs` and the end of the chunks composed, in seconds.
    public var maxLagSeconds: Double
    /// Versions of `session.json` read.
    public var versionsRead: Int
    /// On the queue: chunks an earlier attempt made before its worker died, carried on from, not encoded again.
    public var chunksTakenOver: Int
    /// How the loudness was set: causally, from what had been heard (``causalLoudness``), or not at all.
    public var loudnessMethod: String

    public static let causalLoudness = "causal: EBU R128 integrated loudness of each track and of the mix heard so far, "
        + "gains decided every 100 ms and moved at most 7.5 dB/s for the first 8 s of talk heard, then up at most 0.5 dB/s (down as fast), then limited"
    public static let noLoudness = "off"

    public init(chunksWhileRecorded: Int, chunks: Int, maxLagSeconds: Double, versionsRead: Int, chunksTakenOver: Int = 0,
                loudnessMethod: String = FollowReport.causalLoudness) {
        self.chunksTakenOver = chunksTakenOver
        self.chunksWhileRecorded = chunksWhileRecorded
        self.chunks = chunks
        self.maxLagSeconds = maxLagSeconds
        self.versionsRead = versionsRead
        self.loudnessMethod = loudnessMethod
    }
}
