import Foundation

/// The bit rates of a finished HLS media playlist, as its master playlist announces them
/// (RFC 8216 4.3.4.2): the peak is the largest segment's bits over its duration, the average is
/// all the segments' bits over the playlist's duration. Read from the segment files as written.
struct MediaPlaylistBitrate: Equatable {
    var peak: Int
    var average: Int

    static let zero = MediaPlaylistBitrate(peak: 0, average: 0)

    static func measure(_ playlist: URL) throws -> MediaPlaylistBitrate {
        let text = try String(contentsOf: playlist, encoding: .utf8)
        let directory = playlist.deletingLastPathComponent()
        var duration: Double?
        var peak = 0.0, bits = 0.0, seconds = 0.0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })
            } else if !line.hasPrefix("#"), let length = duration, length > 0 {
                let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(String(line)).path)[.size]
                let segmentBits = Double((size as? NSNumber)?.intValue ?? 0) * 8
                peak = max(peak, segmentBits / length)
                bits += segmentBits
                seconds += length
                duration = nil
            }
        }
        return MediaPlaylistBitrate(peak: Int(peak.rounded(.up)), average: seconds > 0 ? Int((bits / seconds).rounded(.up)) : 0)
    }

    static func + (a: MediaPlaylistBitrate, b: MediaPlaylistBitrate) -> MediaPlaylistBitrate {
        MediaPlaylistBitrate(peak: a.peak + b.peak, average: a.average + b.average)
    }
}
