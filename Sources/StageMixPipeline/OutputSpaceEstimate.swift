public import StageMixGeometry
public import StageMixStorage

/// What a composition will write, estimated before any media is read, so that a run which cannot fit is
/// refused at once (exit 73) rather than failing at the disk's last byte minutes later: each rendition's
/// video at its bitrate (under `--crf`, at a rate typical of its size), the audio, the MPEG-TS or fMP4
/// overhead, `composition.mp4` again when asked for, the chunks' own video in a chunked run's staging,
/// the pictures and the reports, with a margin. An estimate of what is likely, not a worst case: only a
/// file system clearly short of it is refused.
public struct OutputSpaceEstimate: Sendable, Equatable {
    public var bytes: Int64

    /// Bits per pixel and frame an x264 stream at constant quality is taken to average (720p30 at CRF 23
    /// is about 1.4 Mbit/s: 0.05).
    static let crfBitsPerPixel = 0.05
    /// Container overhead (MPEG-TS packets and PES headers; fMP4 boxes are fewer) and the margin.
    static let overhead = 1.08, margin = 1.1
    /// Reports, playlists and the report page: a few of them, usually well under this.
    static let reports: Int64 = 2_000_000
    /// One JPEG thumbnail (or the poster).
    static let picture: Int64 = 40_000

    public init(settings: ComposeSettings, canvas: CanvasSize, fps: Int, seconds: Double, chunked: Bool) {
        let seconds = max(0, seconds)
        func videoBits(_ rate: ComposeSettings.VideoRate, width: Int, height: Int, fps: Int) -> Double {
            switch rate {
            case .bitrate(let bps): Double(bps)
            case .crf: Double(width * height * fps) * Self.crfBitsPerPixel
            }
        }
        let video = settings.renditions.isEmpty
            ? videoBits(settings.videoRate, width: canvas.width, height: canvas.height, fps: fps)
            : settings.renditions.reduce(0) { $0 + videoBits($1.rate, width: $1.width, height: $1.height, fps: $1.fps ?? fps) }
        let audio = Double(settings.audioBitrate)
        var media = (video + audio) * seconds / 8 * Self.overhead
        if settings.mp4 { media += (video + audio) * seconds / 8 }
        if chunked { media += video * seconds / 8 }
        let pictures = settings.thumbnailSeconds.map { Int64(seconds / max($0, 0.1)) + 1 } ?? 1
        let total = media * Self.margin + Double(Self.reports + pictures * Self.picture)
        bytes = Int64(min(total, 1e17))
    }

    /// Refuses with ``NotEnoughSpace`` when the file system `path` will be written on (or its nearest
    /// existing folder's) has less free than the estimate; passes when it cannot be measured.
    public func check(at path: String, what: String) throws(NotEnoughSpace) {
        guard let (folder, free) = NotEnoughSpace.freeBytes(at: path), free < bytes else { return }
        throw NotEnoughSpace(folder: folder, neededBytes: bytes, freeBytes: free, what: what)
    }
}
