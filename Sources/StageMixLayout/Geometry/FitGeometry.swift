/// Where content of some size lands inside a tile.
///
/// `contain` scales the whole frame into the tile and centres it (letterbox or
/// pillarbox); `cover` fills the whole tile and crops the frame's centre.
public struct FitGeometry: Sendable, Hashable, Codable {
    /// Where the scaled content is drawn, in canvas pixels.
    public var destination: Rect
    /// The part of the content frame that is drawn, in content pixels.
    public var sourceCrop: Rect

    public init(destination: Rect, sourceCrop: Rect) {
        self.destination = destination
        self.sourceCrop = sourceCrop
    }

    public static func fit(content: CanvasSize, into tile: Rect, mode: Fit) -> FitGeometry {
        let whole = Rect(x: 0, y: 0, width: Even.floor(content.width), height: Even.floor(content.height))
        guard whole.width > 0, whole.height > 0, tile.width > 0, tile.height > 0 else {
            return FitGeometry(destination: Rect(x: tile.x, y: tile.y, width: 0, height: 0), sourceCrop: whole)
        }
        let scaleX = Double(tile.width) / Double(whole.width)
        let scaleY = Double(tile.height) / Double(whole.height)
        switch mode {
        case .contain:
            let scale = min(scaleX, scaleY)
            // The nearest even size (a tie goes down), never past the tile: a 16:9 picture in a 636x358
            // tile (357.75 exactly) fills it, 0.07 % taller than true, instead of leaving a 2-pixel bar.
            let size = (width: min(tile.width, Even.nearestTiesDown(Double(whole.width) * scale)),
                        height: min(tile.height, Even.nearestTiesDown(Double(whole.height) * scale)))
            let destination = Rect(x: tile.x + Even.floor((tile.width - size.width) / 2),
                                   y: tile.y + Even.floor((tile.height - size.height) / 2),
                                   width: size.width, height: size.height)
            return FitGeometry(destination: destination, sourceCrop: whole)
        case .cover:
            let scale = max(scaleX, scaleY)
            let size = (width: min(whole.width, Even.round(Double(tile.width) / scale)),
                        height: min(whole.height, Even.round(Double(tile.height) / scale)))
            let crop = Rect(x: Even.floor((whole.width - size.width) / 2),
                            y: Even.floor((whole.height - size.height) / 2),
                            width: size.width, height: size.height)
            return FitGeometry(destination: tile, sourceCrop: crop)
        }
    }
}
