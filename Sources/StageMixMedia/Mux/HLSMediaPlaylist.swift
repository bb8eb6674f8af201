import Foundation

/// The media playlist of one HLS rendition, kept as its segments close: each segment's duration and
/// file name, about 25 bytes a segment (22 KB an hour of 4 s segments, 1.6 MB for a day of 1 s ones).
///
/// libavformat's `hls` muxer keeps a record of about 12 KB per segment for a VOD or EVENT playlist (three
/// 4,096-byte strings each), 11 MB an hour of 4 s segments, for as long as it runs. ``HLSMuxer`` runs it
/// with a short window of the latest segments instead (a live playlist), and takes each segment from
/// that window into this list as it is written; the playlist a player reads is written from here.
struct HLSMediaPlaylist {
    /// The tags libavformat wrote before its first segment (`#EXT-X-VERSION`, `#EXT-X-INDEPENDENT-SEGMENTS`,
    /// an fMP4 rendition's `#EXT-X-MAP`), in its order; target duration and media sequence are this list's.
    private var header: [String] = []
    /// Each segment's `#EXTINF` in microseconds: six decimals, as libavformat writes it, held exactly.
    private var durations: [Int64] = []
    /// The segments' file names, one after another, each ended by a line feed.
    private var names = ""
    /// `#EXT-X-TARGETDURATION` by libavformat's rule: a segment at least as long as the target so far sets it
    /// to its own length rounded.
    private(set) var targetDuration = 0

    /// Segments taken so far.
    var count: Int { durations.count }

    /// Takes the segments of `window` (a playlist libavformat wrote, whose `#EXT-X-MEDIA-SEQUENCE` numbers
    /// its first segment) that are not in the list yet; returns how many. A window that starts past the next
    /// segment expected lost one before it was read: an error, never a playlist with a hole.
    mutating func take(window: String) throws(MediaError) -> Int {
        var sequence = 0
        var position = 0
        var duration: Int64?
        var taken = 0
        var tags: [String] = []
        for line in window.split(separator: "\n") {
            if line.hasPrefix("#EXTINF:") {
                duration = Self.microseconds(line.dropFirst("#EXTINF:".count).prefix { $0 != "," })
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                sequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) ?? 0
                tags.append(String(line))
            } else if line.hasPrefix("#") {
                // Tags before the first segment are the header's; those of segments (program date times) are not kept.
                if position == 0 && duration == nil && !line.hasPrefix("#EXT-X-ENDLIST") && !line.hasPrefix("#EXT-X-PLAYLIST-TYPE") {
                    tags.append(String(line))
                }
            } else if !line.isEmpty {
                let index = sequence + position
                position += 1
                guard let length = duration else {
                    throw MediaError(.muxFailed, "HLS window playlist: segment \(line) has no #EXTINF")
                }
                duration = nil
                if index < durations.count { continue }
                guard index == durations.count else {
                    throw MediaError(.muxFailed, "HLS window playlist: segment \(index) (\(line)) came before segment \(durations.count) was read")
                }
                durations.append(length)
                names += line + "\n"
                let seconds = Double(length) / 1_000_000
                if Double(targetDuration) <= seconds { targetDuration = Int(seconds.rounded(.toNearestOrEven)) }
                taken += 1
            }
        }
        if !tags.isEmpty { header = tags }
        return taken
    }

    /// The playlist's text: a VOD playlist once `ended`, an EVENT playlist before. With `programDateTimeStart`,
    /// each segment's `#EXT-X-PROGRAM-DATE-TIME` is that date plus the segments before it, to the
    /// millisecond; `dateRanges` go before the segment their start falls in (before the end when past it).
    func text(ended: Bool, programDateTimeStart: Date?, dateRanges: [HLSDateRange] = []) -> String {
        var out = "#EXTM3U\n"
        out.reserveCapacity(256 + durations.count * (programDateTimeStart == nil ? 40 : 90))
        for tag in header {
            if tag.hasPrefix("#EXT-X-TARGETDURATION:") {
                out += "#EXT-X-TARGETDURATION:\(targetDuration)\n"
            } else if tag.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                out += "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:\(ended ? "VOD" : "EVENT")\n"
            } else if tag != "#EXTM3U" {
                out += tag + "\n"
            }
        }
        let startMs = programDateTimeStart.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var pending = dateRanges.sorted { $0.offset < $1.offset }[...]
        var elapsed: Int64 = 0
        var index = 0
        for name in names.split(separator: "\n") {
            let duration = durations[index]
            index += 1
            let end = Double(elapsed + duration) / 1_000_000
            while let range = pending.first, range.offset < end, let start = programDateTimeStart {
                out += range.tag(start: start, formatter: formatter) + "\n"
                pending.removeFirst()
            }
            out += "#EXTINF:\(Self.decimal(duration)),\n"
            if let startMs { out += "#EXT-X-PROGRAM-DATE-TIME:\(Self.timestamp(ms: startMs + Self.roundedMs(elapsed)))\n" }
            out += name + "\n"
            elapsed += duration
        }
        if ended {
            if let start = programDateTimeStart { for range in pending { out += range.tag(start: start, formatter: formatter) + "\n" } }
            out += "#EXT-X-ENDLIST\n"
        }
        return out
    }

    /// `4.000000` as 4,000,000 µs; digits past the sixth decimal are dropped (libavformat writes six).
    static func microseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]), whole >= 0 else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = parts[1].prefix(6)
            guard digits.allSatisfy(\.isASCII), let value = digits.isEmpty ? 0 : Int64(digits) else { return nil }
            fraction = value
            for _ in digits.count..<6 { fraction *= 10 }
        }
        return whole * 1_000_000 + fraction
    }

    /// Microseconds as `%f` writes seconds: six decimals.
    static func decimal(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Microseconds to the nearest millisecond (half up).
    static func roundedMs(_ microseconds: Int64) -> Int64 { (microseconds + 500) / 1000 }

    /// Milliseconds since the Unix epoch as `2026-11-20T18:00:04.000Z`, computed in integers: no rounding
    /// of a floating-point date can move a program date time by a millisecond, however long the session.
    static func timestamp(ms: Int64) -> String {
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let milliseconds = Int(ms - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
