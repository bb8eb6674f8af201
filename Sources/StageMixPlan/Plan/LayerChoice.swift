public import StageMixLayout
public import StageMixCapture

/// The simulcast layer picked for a tile, and the area it had to cover.
public struct LayerChoice: Sendable, Hashable, Codable {
    public var quality: LayerQuality
    public var width: Int
    public var height: Int
    /// Relative to the capture directory.
    public var file: String
    /// The area the video fills on the canvas: the tile for `cover`, the fitted rectangle for `contain`.
    public var neededWidth: Int
    public var neededHeight: Int

    /// The smallest layer at least as large as the shown area in both dimensions, else the largest
    /// (an SFU sends the closest layer it has).
    public static func choose(for track: Track, tile: Rect, fit: Fit) -> LayerChoice? {
        guard let largest = track.layers.last else { return nil }
        let shown = FitGeometry.fit(content: CanvasSize(width: largest.width, height: largest.height),
                                    into: tile, mode: fit).destination
        let layer = track.layers.first { $0.width >= shown.width && $0.height >= shown.height } ?? largest
        return LayerChoice(quality: layer.quality, width: layer.width, height: layer.height, file: layer.file,
                           neededWidth: shown.width, neededHeight: shown.height)
    }
}
