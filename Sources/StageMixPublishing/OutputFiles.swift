/// The names of what a composition writes inside its destination, defined once: the pipeline
/// writes them, the worker and the API read and link them.
public enum OutputFiles {
    /// The HLS folder, and the playlist in it (a master playlist over a ladder).
    public static let hls = "hls"
    public static let playlist = "index.m3u8"
    /// A ladder's audio rendition, a folder inside `hls`.
    public static let audioRendition = "audio"
    /// `hls/index.m3u8`: what a player opens.
    public static let hlsPlaylist = "\(hls)/\(playlist)"
    public static let mp4 = "composition.mp4"
    public static let poster = "poster.jpg"
    public static let thumbnails = "thumbnails"
    public static let thumbnailTrack = "thumbnails.vtt"
    public static let timeline = "timeline.json"
    public static let billing = "billing.json"
    public static let plan = "plan.json"
    public static let report = "report.json"
    /// The page a person reads the session in (`report.html`).
    public static let reportPage = "report.html"

    /// Every top-level name an output may hold (besides its marker): what an interrupted upload to
    /// object storage may have left, and only that, is StageMix's to replace.
    public static let topLevel: Set<String> = [hls, mp4, poster, thumbnails, thumbnailTrack, timeline, billing, plan, report, reportPage]
}
