import StageMixCapture

/// What a Daily raw-tracks file's name says (docs.daily.co, "Recording calls with the Daily API",
/// raw-tracks; daily-co/raw-tracks-tools): `<recordingStartMs>-<participantSessionId>-<type>-<trackStartMs>.webm`,
/// where `<type>` is `cam-video`, `cam-audio`, `screen-video` or `screen-audio` (a custom track's
/// name otherwise), the session id is Daily's participant id (a UUID, itself with dashes), and both
/// instants are Unix milliseconds: when the recording started and when this track's file did.
struct DailyFileName: Hashable, Sendable {
    /// The recording's start, the same for every file of one recording.
    var recordingStartMs: Int64
    var participant: String
    /// `cam-video`, ..., or a custom track's name.
    var type: String
    var trackStartMs: Int64

    static let types: [String: TrackSource] = [
        "cam-video": .camera, "cam-audio": .microphone, "screen-video": .screenShare, "screen-audio": .screenShareAudio,
    ]

    /// What the contract calls the track; nil for a custom track.
    var source: TrackSource? { Self.types[type] }

    init?(_ name: String) {
        guard name.lowercased().hasSuffix(".webm") else { return nil }
        let stem = name.dropLast(5)
        guard let first = stem.firstIndex(of: "-"), let last = stem.lastIndex(of: "-"), first < last,
              let recording = Self.instant(stem[..<first]), let track = Self.instant(stem[stem.index(after: last)...]) else { return nil }
        let middle = stem[stem.index(after: first)..<last]
        if let known = Self.types.keys.first(where: { middle.hasSuffix("-" + $0) }) {
            participant = String(middle.dropLast(known.count + 1))
            type = known
        } else {
            // A custom track: Daily's session ids are UUIDs, 36 characters.
            guard middle.count > 37, middle[middle.index(middle.startIndex, offsetBy: 36)] == "-" else { return nil }
            participant = String(middle.prefix(36))
            type = String(middle.dropFirst(37))
        }
        guard !participant.isEmpty else { return nil }
        recordingStartMs = recording
        trackStartMs = track
    }

    /// Unix milliseconds written as digits, between 2000 and 2100.
    private static func instant(_ text: Substring) -> Int64? {
        guard (12...14).contains(text.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let ms = Int64(text),
              PlatformClock.plausible.contains(ms) else { return nil }
        return ms
    }
}
