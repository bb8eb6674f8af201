public import Foundation

/// Rewrites the `#EXT-X-PROGRAM-DATE-TIME` tags of an HLS media playlist so
/// they count from a chosen start date plus the preceding segments' EXTINF
/// durations. FFmpeg 5.1's hls muxer only stamps the wall-clock time at which
/// muxing started; a composition of a recorded session needs the session clock.
public enum HLSPlaylistDates {
    /// Also places each of `dateRanges` before the segment its start falls in (after the last one
    /// when it starts past the end), in order.
    public static func rewriting(_ playlist: String, start: Date, dateRanges: [HLSDateRange] = []) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var elapsed = 0.0
        var segmentDuration = 0.0
        var lines: [String] = []
        var pending = dateRanges.sorted { $0.offset < $1.offset }[...]
        for line in playlist.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
                lines.append("#EXT-X-PROGRAM-DATE-TIME:" + formatter.string(from: start.addingTimeInterval(elapsed)))
                continue
            }
            if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                segmentDuration = Double(value) ?? 0
                // Ranges that start within this segment go just before it.
                while let range = pending.first, range.offset < elapsed + segmentDuration {
                    lines.append(range.tag(start: start, formatter: formatter))
                    pending.removeFirst()
                }
            } else if line.hasPrefix("#EXT-X-ENDLIST") {
                lines += pending.map { $0.tag(start: start, formatter: formatter) }
                pending.removeAll()
            } else if !line.hasPrefix("#") && !line.isEmpty {
                elapsed += segmentDuration  // a segment URI ends the segment's tags
                segmentDuration = 0
            }
            lines.append(String(line))
        }
        return lines.joined(separator: "\n")
    }
}
