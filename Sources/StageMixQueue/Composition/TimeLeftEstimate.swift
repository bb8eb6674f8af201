/// The seconds a running composition has left, worked out from its progress alone, so that the figure
/// moves only for a reason. The rate is the attempt's average from its start to the moment progress
/// last moved (an average over the whole run smooths out a slow start or a burst); at that moment the
/// estimate is what the rest would take at that rate, and while progress stands still it counts down
/// from there, never below zero, rather than rising. It can rise only when progress moves more slowly
/// than it had: a new reading.
public enum TimeLeftEstimate {
    /// - Parameters:
    ///   - progress: percent, 0 to 100.
    ///   - startedAt: when the attempt started composing.
    ///   - progressAt: when progress last moved (at or after `startedAt`).
    ///   - now: the time asked about, on the same clock.
    /// - Returns: nil before there is a rate to go by (under 1 %) or once done.
    public static func seconds(progress: Double, startedAt: Double, progressAt: Double, now: Double) -> Double? {
        guard progress >= 1, progress < 100, progressAt > startedAt else { return nil }
        let rate = progress / (progressAt - startedAt)
        let atLastMove = (100 - progress) / rate
        return max(0, atLastMove - max(0, now - progressAt)).rounded()
    }
}
