/// The largest values `session.json` may hold (docs/limits.md). The reader rejects anything beyond
/// them, so that planning, billing and the pipeline can do their arithmetic in `Int` without
/// overflow and allocate nothing larger than a 24-hour session needs.
public enum CaptureLimits {
    /// A session lasts at most 24 hours: `session.ended`'s `atMs`, and so every event's.
    public static let maxSessionMs = 24 * 60 * 60 * 1_000
    /// `startOffsetMs` of a track or layer lies on the session clock, within the longest session.
    public static let startOffsetMs = 0...maxSessionMs
    /// Every event's `atMs`.
    public static let atMs = 0...maxSessionMs
    /// A layer's nominal `width` and `height`, each: from the smallest 4:2:0 picture to 16K.
    public static let layerSide = 2...16_384
    /// A layer's `width * height`: 8192 x 8192, room for 8K (7680 x 4320) and wide screen shares.
    /// Decoders use the same value as their `max_pixels`, so media cannot claim more than the manifest may.
    public static let maxLayerPixels = 8_192 * 8_192
    /// Entries of `participants` (viewers included).
    public static let maxParticipants = 10_000
    /// Entries of `tracks`.
    public static let maxTracks = 20_000
    /// Participants on stage (joined, `SEND_AND_RECV`, pinned) at any one time, as many panelists as a
    /// large webinar has: every stretch of the timeline and the plan holds the whole stage.
    public static let maxOnStage = 100
    /// Tracks one participant has published at any one time (camera, microphone, screen, its audio, ...).
    public static let maxPublishedTracksPerParticipant = 16
    /// Entries of `events`, `session.ended` included.
    public static let maxEvents = 1_000_000
    /// The stage's stretches times who is on stage in each, summed over the session: every change of the
    /// stage (a join, a mute, a pause's grace running out) starts a stretch that keeps the whole stage, and
    /// the plan a tile for each of them, so memory grows with this product (about 1.3 KB per
    /// participant-stretch for the plan, several times that while `plan.json` is written). 300,000 is a
    /// 24-hour session whose stage of 20 changes every 6 s, in about 400 MB; past it a capture is
    /// refused before the plan is built.
    public static let maxStageStretches = 300_000
    /// Members of `roles`.
    public static let maxRoles = 1_000
    /// `startedAt`'s year: nothing was recorded before the Unix epoch, and a far-future year is a bug upstream.
    public static let startedAtYears = 1970...2199
    /// `session.json` itself: a million events take about 100 MB, and the parsed tree several times that.
    public static let maxManifestBytes = 256 * 1_024 * 1_024
}
