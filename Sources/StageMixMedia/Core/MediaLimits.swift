/// What reading one media file may cost, whatever the file claims: the largest picture a decoder
/// allocates, and how long one open or one packet read may block. A file that needs more is damaged
/// or hostile; it is refused, not obeyed.
public struct MediaLimits: Sendable, Equatable {
    /// The largest picture, in pixels, a decoder may allocate (AVCodecContext.max_pixels) or deliver.
    public var maxPixels: Int
    /// Seconds `avformat_open_input` plus `avformat_find_stream_info` may take.
    public var openSeconds: Double
    /// Seconds one packet read or one seek may take; the deadline restarts at every read.
    public var readSeconds: Double

    public init(maxPixels: Int = MediaLimits.maxPixels, openSeconds: Double = 10, readSeconds: Double = 5) {
        self.maxPixels = maxPixels
        self.openSeconds = openSeconds
        self.readSeconds = readSeconds
    }

    /// 8K UHD (7680x4320, 33.2 million pixels, a 50 MB yuv420p picture): more than any camera or screen
    /// share a livestream carries, and a bound on what a forged header can make a decoder allocate.
    public static let maxPixels = 7680 * 4320

    public static let standard = MediaLimits()

    /// How much larger than its nominal size a layer's picture may be before it is refused.
    public static let nominalSlack = 4

    /// These limits for a layer the capture says is `width`x`height`: pictures over `nominalSlack` times
    /// its pixel count (and never over `maxPixels`) are refused.
    public func forLayer(width: Int, height: Int) -> MediaLimits {
        var limits = self
        let nominal = max(1, width) * max(1, height)
        limits.maxPixels = min(maxPixels, nominal * Self.nominalSlack)
        return limits
    }
}
