public import StageMixMedia

/// What every synthetic video frame shows: the track's solid colour with a white square
/// marker moving left to right along the top, so that consecutive frames differ.
///
/// The marker's side is 1/6 of the height, its top at 1/12 of the height; it crosses the width
/// once every `crossingMs` and starts again at the left. Its place depends on session time only,
/// so all layers of a track agree. It never reaches the vertical centre, where tests read the colour.
public struct TestPattern: Sendable, Hashable {
    public var color: RGBColor
    public static let crossingMs = 4_000.0

    public init(color: RGBColor) { self.color = color }

    /// The marker's rectangle in a `width`x`height` picture at session time `ms`.
    public static func marker(width: Int, height: Int, atMs ms: Double) -> Rect {
        let side = max(2, height / 6) & ~1
        let phase = ms.truncatingRemainder(dividingBy: crossingMs) / crossingMs
        let x = Int(phase * Double(width - side)) & ~1
        return Rect(x: x, y: (height / 12) & ~1, width: side, height: side)
    }

    /// Paints the picture for session time `ms`.
    public func draw(on canvas: CanvasFrame, atMs ms: Double) throws(MediaError) {
        try canvas.fill(color: color)
        try canvas.fill(rect: Self.marker(width: canvas.width, height: canvas.height, atMs: ms), color: Palette.marker)
    }
}
