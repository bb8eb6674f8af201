import Foundation

/// The bit rates of a finished HLS media playlist, as its master playlist announces them
/// (RFC 8216 4.3.4.2 and its revision): the peak is the largest bit rate of any run of consecutive
/// segments lasting 0.5 to 1.5 times the target duration (so a short last segment that starts with
/// a keyframe does not count as a second of its own), the average is all the segments' bits over
/// the playlist's duration. Read from the segment files as written.
struct MediaPlaylistBitrate: Equatable {
    var peak: Int
    var average: Int

    static func measure(_ playlist: URL) throws -> MediaPlaylistBitrate {
        let text = try String(contentsOf: playlist, encoding: .utf8)
        let directory = playlist.deletingLastPathComponent()
        var duration: Double?
        var target: Double?
        var segments: [(bits: Double, seconds: Double)] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                target = Double(line.dropFirst("#EXT-X-TARGETDURATION:".count))
            } else if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })
            } else if !line.hasPrefix("#"), let length = duration, length > 0 {
                let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(String(line)).path)[.size]
                segments.append((Double((size as? NSNumber)?.intValue ?? 0) * 8, length))
                duration = nil
            }
        }
        return of(segments, targetDuration: target ?? segments.map(\.seconds).max()?.rounded(.up) ?? 0)
    }

    static func of(_ segments: [(bits: Double, seconds: Double)], targetDuration: Double) -> MediaPlaylistBitrate {
        let bits = segments.reduce(0) { $0 + $1.bits }, seconds = segments.reduce(0) { $0 + $1.seconds }
        let average = seconds > 0 ? bits / seconds : 0
        var peak = 0.0
        for start in segments.indices {
            var runBits = 0.0, runSeconds = 0.0
            for segment in segments[start...] {
                runBits += segment.bits
                runSeconds += segment.seconds
                if runSeconds > 1.5 * targetDuration + 1e-6 { break }
                if runSeconds >= 0.5 * targetDuration - 1e-6 { peak = max(peak, runBits / runSeconds) }
            }
        }
        // A playlist shorter than half its target duration has no such run: its average is its peak.
        return MediaPlaylistBitrate(peak: Int(max(peak, average).rounded(.up)), average: Int(average.rounded(.up)))
    }

    static func + (a: MediaPlaylistBitrate, b: MediaPlaylistBitrate) -> MediaPlaylistBitrate {
        MediaPlaylistBitrate(peak: a.peak + b.peak, average: a.average + b.average)
    }
}
