internal import CFFmpeg

/// A raw picture layout such as yuv420p or rgb24 (an AVPixelFormat).
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    let raw: Int32

    init(raw: Int32) { self.raw = raw }
    init(_ f: AVPixelFormat) { self.raw = f.rawValue }

    /// Looks a format up by FFmpeg's name ("yuv420p", "rgb24", "nv12" ...).
    public init?(name: String) {
        let f = av_get_pix_fmt(name)
        guard f != AV_PIX_FMT_NONE else { return nil }
        self.init(f)
    }

    public static let yuv420p = PixelFormat(AV_PIX_FMT_YUV420P)

    var av: AVPixelFormat { AVPixelFormat(rawValue: raw) }

    public var name: String {
        guard let n = av_get_pix_fmt_name(av) else { return "none" }
        return String(cString: n)
    }

    public var description: String { name }
}
