/// How far a followed composition (`follow`, docs/follow.md) has got while its session is recorded:
/// the session recorded so far and the part of it composed, in seconds of session time, as its
/// `compose --follow` child last said. Its length is unknown until the session ends, so these, not
/// a percent, are its progress; the composed position trails the recorded one by a chunk or so.
public struct FollowPosition: Sendable, Hashable {
    /// Session seconds recorded so far (`recording.completeToMs`).
    public var recordedSeconds: Double
    /// Session seconds composed: the end of the chunks made so far.
    public var composedSeconds: Double

    public init(recordedSeconds: Double, composedSeconds: Double) {
        self.recordedSeconds = recordedSeconds
        self.composedSeconds = composedSeconds
    }
}
