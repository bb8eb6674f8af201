/// What `CaptureProbe` found for a capture: one entry per video layer and per audio track.
public struct ProbeReport: Sendable, Hashable, Codable {
    public var sessionId: String
    public var durationMs: Int
    public var streams: [StreamProbe]

    /// Entries that fail the lobby check: unreadable, undecodable, cut short, with gaps, or a silent microphone.
    public var problems: [StreamProbe] { streams.filter { !$0.passes } }
}

/// One media file of a capture as the probe saw it.
public struct StreamProbe: Sendable, Hashable, Codable {
    public var trackId: String
    public var participantId: String
    public var source: String
    /// Simulcast quality of a video layer; nil for audio.
    public var quality: String?
    public var file: String
    /// The session time the file's first sample plays at.
    public var startOffsetMs: Int
    /// The file opened and has a stream of the track's kind.
    public var opens: Bool
    /// The first frames (video) or every packet (audio) decoded without error.
    public var decodes: Bool
    /// Why it failed to open or decode.
    public var error: String?
    public var codec: String?
    public var width: Int?
    public var height: Int?
    /// Average frame rate the container reports.
    public var frameRate: Double?
    public var durationSeconds: Double?
    /// Video packets or audio packets read.
    public var packets: Int?
    /// Frames (video, of the first few) or samples per channel (audio) decoded.
    public var decoded: Int?
    /// Session time of the first keyframe (video).
    public var firstKeyframeMs: Int?
    public var sampleRate: Int?
    public var channels: Int?
    /// Level over the whole track (audio), dBFS; nil when there was no sample.
    public var rmsDbfs: Double?
    public var peakDbfs: Double?
    /// The microphone never rises above the silence threshold (audio).
    public var silent: Bool?
    /// Session time the file's media ends at, by its last packet's timestamp and duration.
    public var endMs: Int?
    /// Session time the track's last published (unpaused, unmuted) stretch ends at.
    public var publishedUntilMs: Int?
    /// The file ends more than the probe's tolerance before `publishedUntilMs`.
    public var truncated: Bool?
    /// Stretches of session time, inside the published ones, where the file's timestamps jump by more
    /// than the probe's gap threshold: nothing was recorded there.
    public var gaps: [ProbeGap]?
    /// True for media in object storage: only its header and first frames (or first second of
    /// sound) were read, by ranged GETs, so length, gaps, truncation and silence were not checked.
    public var headersOnly: Bool?

    public var passes: Bool { opens && decodes && silent != true && truncated != true && (gaps ?? []).isEmpty }
}

/// A jump in a file's timestamps, as session time `[fromMs, toMs)`.
public struct ProbeGap: Sendable, Hashable, Codable {
    public var fromMs: Int
    public var toMs: Int
}
