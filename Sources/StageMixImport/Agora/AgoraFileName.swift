import Foundation

/// What an Agora Cloud Recording file's name says (individual recording, docs.agora.io "Manage
/// recorded files" and "Legacy recorded files"):
///
/// - legacy (`mode=individual`): per uid a playlist per kind, `<sid>_<cname>__uid_s_<uid>__uid_e_<audio|video>.m3u8`,
///   with slices `…__uid_e_<audio|video>_<utc>.ts` (or `.webm`);
/// - raw (`mode=raw`): one audio-and-video playlist, `…__uid_e_<codec>.m3u8`, slices `…__uid_e_<utc>_<codec>.ts`,
///   and for VP8/VP9 a DASH `…__uid_e_<codec>.mpd`;
/// - after a failover the recorder's files carry a `bak<n>_` prefix, and Agora's backup upload writes
///   playlists `…__uid_e_<type>_<tick>_<index>.m3u8`: all of them belong to the same uid's stream.
///
/// `<utc>` is the slice's start, `yyyyMMddHHmmssSSS` in UTC.
struct AgoraFileName: Hashable, Sendable {
    enum Stream: Hashable, Sendable, CustomStringConvertible {
        case audio, video
        /// Raw mode: audio and video in one file, with the codec the name gives.
        case combined(String)

        var description: String {
            switch self {
            case .audio: "audio"
            case .video: "video"
            case .combined(let codec): codec
            }
        }
    }

    enum Role: Hashable, Sendable { case playlist, slice, dash }

    var sid: String
    var cname: String
    var uid: String
    var stream: Stream
    var role: Role
    /// A slice's start (Unix ms).
    var utcMs: Int64?
    /// `n` of a `bak<n>_` prefix.
    var failover: Int?
    /// A backup upload's playlist (`_<tick>_<index>.m3u8`).
    var isBackup = false
    /// `ts`, `webm`, `m3u8`, `mpd`.
    var fileExtension: String

    init?(_ name: String) {
        let ext = (name as NSString).pathExtension.lowercased()
        switch ext {
        case "m3u8": role = .playlist
        case "mpd": role = .dash
        case "ts", "webm": role = .slice
        default: return nil
        }
        fileExtension = ext
        var stem = Substring((name as NSString).deletingPathExtension)
        if stem.hasPrefix("bak"), let cut = stem.firstIndex(of: "_"), let n = Int(stem[stem.index(stem.startIndex, offsetBy: 3)..<cut]) {
            failover = n
            stem = stem[stem.index(after: cut)...]
        }
        guard let s = stem.range(of: "__uid_s_"), let e = stem.range(of: "__uid_e_", range: s.upperBound..<stem.endIndex) else { return nil }
        let head = stem[..<s.lowerBound]
        guard let cut = head.firstIndex(of: "_") else { return nil }
        sid = String(head[..<cut])
        cname = String(head[head.index(after: cut)...])
        uid = String(stem[s.upperBound..<e.lowerBound])
        let parts = stem[e.upperBound...].split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard !sid.isEmpty, !uid.isEmpty, let first = parts.first, !first.isEmpty else { return nil }
        switch (role, parts.count) {
        case (.slice, 2) where Self.isUTC(parts[1]) && (first == "audio" || first == "video"):
            stream = first == "audio" ? .audio : .video
            utcMs = Self.utcMs(parts[1])
        case (.slice, 2) where Self.isUTC(first):
            stream = .combined(parts[1])
            utcMs = Self.utcMs(first)
        case (.playlist, 1), (.dash, 1):
            stream = Self.stream(first)
        case (.playlist, 3) where Int64(parts[1]) != nil && Int(parts[2]) != nil:
            stream = Self.stream(first)
            isBackup = true
        default:
            return nil
        }
        if role == .slice, utcMs == nil { return nil }
    }

    /// The uid's stream the file belongs to, whatever its prefix or upload.
    var key: AgoraStreamKey { AgoraStreamKey(uid: uid, stream: stream) }

    private static func stream(_ word: String) -> Stream {
        switch word {
        case "audio": .audio
        case "video": .video
        default: .combined(word)
        }
    }

    static func isUTC(_ text: String) -> Bool { text.count == 17 && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }

    /// `yyyyMMddHHmmssSSS` (UTC) as Unix milliseconds; nil when it is no such instant.
    static func utcMs(_ text: String) -> Int64? {
        guard isUTC(text) else { return nil }
        let digits = Array(text.utf8).map { Int($0) - 48 }
        func number(_ from: Int, _ count: Int) -> Int { digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (number(0, 4), number(4, 2), number(6, 2))
        (parts.hour, parts.minute, parts.second) = (number(8, 2), number(10, 2), number(12, 2))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard parts.isValidDate(in: calendar), let date = calendar.date(from: parts) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(number(14, 3))
    }
}

/// One uid's stream: its audio, its video, or (raw mode) both in one.
struct AgoraStreamKey: Hashable, Sendable, Comparable {
    var uid: String
    var stream: AgoraFileName.Stream

    static func < (a: Self, b: Self) -> Bool { (a.uid, a.stream.description) < (b.uid, b.stream.description) }
}
