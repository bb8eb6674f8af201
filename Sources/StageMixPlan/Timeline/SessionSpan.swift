/// A stretch `[startMs, endMs)` of the session clock, such as a stage segment or a plan interval.
protocol SessionSpan {
    var startMs: Int { get }
    var endMs: Int { get }
}

extension StageSegment: SessionSpan {}
extension PlanInterval: SessionSpan {}
extension SpeakerTimeline.Turn: SessionSpan {
    var startMs: Int { fromMs }
    var endMs: Int { toMs }
}

extension Array where Element: SessionSpan {
    /// The element covering `atMs`, found by binary search: segments and intervals are contiguous and
    /// ascending, and the pipeline asks once per frame.
    func covering(_ atMs: Int) -> Element? {
        let low = firstIndex(endingAfter: atMs)
        guard low < count, self[low].startMs <= atMs else { return nil }
        return self[low]
    }

    /// The index of the first element ending after `atMs` (`count` if none), by bisection.
    func firstIndex(endingAfter atMs: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if self[middle].endMs <= atMs { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The elements that overlap `[fromMs, toMs)`, in order: the first found by bisection.
    func overlapping(from fromMs: Int, to toMs: Int) -> ArraySlice<Element> {
        let first = firstIndex(endingAfter: fromMs)
        var last = first
        while last < count, self[last].startMs < toMs { last += 1 }
        return self[first..<last]
    }
}
