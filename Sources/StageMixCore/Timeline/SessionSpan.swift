/// A stretch `[startMs, endMs)` of the session clock, such as a stage segment or a plan interval.
protocol SessionSpan {
    var startMs: Int { get }
    var endMs: Int { get }
}

extension StageSegment: SessionSpan {}
extension PlanInterval: SessionSpan {}

extension Array where Element: SessionSpan {
    /// The element covering `atMs`, found by binary search: segments and intervals are contiguous and
    /// ascending, and the pipeline asks once per frame.
    func covering(_ atMs: Int) -> Element? {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle].endMs <= atMs { low = middle + 1 } else { high = middle }
        }
        guard low < count, self[low].startMs <= atMs else { return nil }
        return self[low]
    }
}
