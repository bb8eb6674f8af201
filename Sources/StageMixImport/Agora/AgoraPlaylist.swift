import Foundation

/// An Agora individual-recording playlist as the recorder writes it: HLS without
/// `EXT-X-PROGRAM-DATE-TIME` (each slice's start is in its name), `#EXTINF:<seconds>` with or without
/// the trailing comma, and Agora's own tags:
///
/// - `#EXT-X-AGORA-TRACK-EVENT:EVENT=START,TRACK_TYPE=<audio|video>,TIME=<utc>`: the track started;
/// - `#EXT-X-AGORA-ROTATE:WIDTH=<w>,HEIGHT=<h>,ROTATE=<degrees>,TIME=<utc>`: the pictures that follow
///   are shown turned `ROTATE` degrees clockwise;
/// - `#EXT-X-DISCONTINUITY`: what follows does not continue what came before.
///
/// A tag applies to the slices listed after it, as HLS tags do. Lines it cannot read are skipped
/// and counted, not fatal: a playlist is the recorder's index, and the slices' names say the rest.
struct AgoraPlaylist: Sendable {
    struct Entry: Sendable {
        /// The slice as the playlist names it (usually a name beside the playlist).
        var uri: String
        var durationMs: Int?
        /// Clockwise degrees the picture is shown turned (0, 90, 180, 270).
        var rotation: Int
        var discontinuity: Bool
    }

    var entries: [Entry] = []
    /// `EXT-X-AGORA-TRACK-EVENT` starts (Unix ms) and the tags' track types.
    var trackStarts: [(type: String, atMs: Int64)] = []
    var unreadLines = 0

    init(text: String) {
        var duration: Int?
        var rotation = 0
        var discontinuity = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0, seconds < 86_400 {
                    duration = Int((seconds * 1000).rounded())
                } else {
                    unreadLines += 1
                }
            } else if line.hasPrefix("#EXT-X-AGORA-ROTATE:") {
                let attributes = Self.attributes(line.dropFirst("#EXT-X-AGORA-ROTATE:".count))
                if let degrees = attributes["ROTATE"].flatMap({ Int($0) }), degrees % 90 == 0 {
                    rotation = ((degrees % 360) + 360) % 360
                } else {
                    unreadLines += 1
                }
            } else if line.hasPrefix("#EXT-X-AGORA-TRACK-EVENT:") {
                let attributes = Self.attributes(line.dropFirst("#EXT-X-AGORA-TRACK-EVENT:".count))
                if attributes["EVENT"] == "START", let time = attributes["TIME"].flatMap(Self.instant) {
                    trackStarts.append((attributes["TRACK_TYPE"] ?? "", time))
                }
            } else if line.hasPrefix("#EXT-X-DISCONTINUITY") && !line.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE") {
                discontinuity = true
            } else if !line.hasPrefix("#") {
                entries.append(Entry(uri: line, durationMs: duration, rotation: rotation, discontinuity: discontinuity))
                duration = nil
                discontinuity = false
            }
        }
    }

    /// `KEY=value,KEY="value"` pairs.
    static func attributes(_ text: Substring) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let sides = pair.split(separator: "=", maxSplits: 1)
            guard sides.count == 2 else { continue }
            out[sides[0].trimmingCharacters(in: .whitespaces)] = sides[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        return out
    }

    /// A tag's `TIME`: `yyyyMMddHHmmssSSS` in UTC, or Unix milliseconds.
    static func instant(_ text: String) -> Int64? {
        if let utc = AgoraFileName.utcMs(text) { return utc }
        return Int64(text).flatMap { PlatformClock.plausible.contains($0) ? $0 : nil }
    }
}
