import Foundation
import StageMixMedia

/// Where a video file stops sending pictures for a while: the stretches (on the file's own clock, ms)
/// between two frames further apart than `longerThan`. A WebRTC sender stops sending while its
/// track is muted or paused, and a recorder writes no frame then; the compositor would hold the last
/// picture across such a hole, so an importer makes it a mute (the placeholder) instead.
enum VideoGaps {
    static let threshold = 1_500

    static func find(in file: URL, longerThan threshold: Int = threshold) -> [ClosedRange<Int>] {
        guard let demuxer = try? Demuxer(url: file), let stream = demuxer.firstStream(ofType: .video) else { return [] }
        let frameSeconds = stream.frameRate.map { $0.doubleValue > 0 ? 1 / $0.doubleValue : 0 } ?? 0
        var times: [Double] = []
        while let packet = try? demuxer.readPacket() {
            if packet.streamIndex == stream.index, let pts = packet.ptsSeconds { times.append(pts) }
        }
        times.sort()
        var gaps: [ClosedRange<Int>] = []
        for (before, after) in zip(times, times.dropFirst()) {
            let from = Int(((before + frameSeconds) * 1000).rounded()), to = Int((after * 1000).rounded())
            if to - from > threshold { gaps.append(from...to) }
        }
        return gaps
    }
}

extension MeasuredMedia {
    /// The file's holes (``VideoGaps``) on the wall clock, its first sample at `start`; none for audio.
    func videoGaps(placedAt start: Int64) -> [ClosedRange<Int64>] {
        guard lost == nil, let url, let header, header.width != nil else { return [] }
        return VideoGaps.find(in: url).map { start + Int64($0.lowerBound - header.firstMs)...start + Int64($0.upperBound - header.firstMs) }
    }
}

extension VideoGaps {
    /// Muted stretches from several sources as one sorted list, overlapping ones joined.
    static func union(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        var out: [ClosedRange<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}
