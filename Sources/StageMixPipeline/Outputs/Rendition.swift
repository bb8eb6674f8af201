/// One video rendition of a ladder: a size, its rate control, and a frame rate that divides the
/// canvas's (nil: the canvas's own).
public struct Rendition: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rate: ComposeSettings.VideoRate
    public var fps: Int?

    public init(width: Int, height: Int, rate: ComposeSettings.VideoRate, fps: Int? = nil) {
        self.width = width
        self.height = height
        self.rate = rate
        self.fps = fps
    }

    /// Its folder under `hls/`: `1280x720`.
    public var name: String { "\(width)x\(height)" }
}
