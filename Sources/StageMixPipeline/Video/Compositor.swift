import Foundation
import StageMixCore
import StageMixLayout
import StageMixMedia

/// Paints the composite for one instant: background, region fills, then each tile, scaling each
/// picture straight from the decoder's frame into its place on the canvas.
final class Compositor {
    /// What a tile without video shows.
    static let placeholderColor = StageMixMedia.RGBColor(r: 0x3A, g: 0x3F, b: 0x4B)

    let canvas: CanvasFrame
    private let capture: Capture
    private var sources: [String: TrackVideoSource] = [:]
    private var scalers: [String: Scaler] = [:]
    /// Media files that could not be read, with why; the composition goes on without them.
    private(set) var lostMedia: [String: String] = [:]
    let decoded = DecodeCounter()

    init(capture: Capture, canvas size: CanvasSize) throws(MediaError) {
        self.capture = capture
        canvas = try CanvasFrame(width: size.width, height: size.height)
    }

    /// Draws `interval` as it looks at session time `t` (seconds).
    func paint(_ interval: PlanInterval, background: StageMixLayout.RGBColor, at t: Double) throws(MediaError) {
        try canvas.fill(color: Self.color(background))
        for region in interval.regions {
            try canvas.fill(rect: Self.pixelRect(region.rect), color: Self.color(region.color))
        }
        for tile in interval.tiles {
            guard let trackId = tile.trackId, let layer = tile.layer, tile.show != .placeholder,
                  let frame = picture(trackId: trackId, quality: layer.quality, hold: tile.show == .heldFrame, at: t)
            else {
                try canvas.fill(rect: Self.pixelRect(tile.rect), color: Self.placeholderColor)
                continue
            }
            let fit = FitGeometry.fit(content: CanvasSize(width: frame.width, height: frame.height),
                                      into: tile.rect, mode: tile.fit)
            let crop = fit.sourceCrop
            let fullFrame = crop.x == 0 && crop.y == 0 && crop.width == frame.width && crop.height == frame.height
            try scaler(for: tile).scale(frame, into: canvas, rect: Self.pixelRect(fit.destination),
                                        sourceCrop: fullFrame ? nil : Self.pixelRect(crop))
        }
        // Decoders of tracks no tile shows close; showing them again reopens at a keyframe.
        let showing = Set(interval.tiles.filter { $0.show != .placeholder }.compactMap(\.trackId))
        sources = sources.filter { showing.contains($0.key) }
    }

    private func picture(trackId: String, quality: LayerQuality, hold: Bool, at t: Double) -> VideoFrame? {
        let source: TrackVideoSource
        if let existing = sources[trackId] {
            source = existing
        } else {
            guard let track = capture.track(trackId) else { return nil }
            source = TrackVideoSource(track: track, capture: capture, counter: decoded)
            sources[trackId] = source
        }
        defer { for (file, error) in source.failures { lostMedia[file] = "\(trackId): \(error)" } }
        if hold, let held = source.lastFrame { return held }
        return source.frame(layer: quality, at: t)
    }

    /// One scaler per tile position, so each keeps its cached swscale context.
    private func scaler(for tile: PlannedTile) -> Scaler {
        let key = "\(tile.region)/\(tile.participantId)/\(tile.source.rawValue)"
        if let scaler = scalers[key] { return scaler }
        let scaler = Scaler()
        scalers[key] = scaler
        return scaler
    }

    static func pixelRect(_ r: Rect) -> PixelRect { PixelRect(x: r.x, y: r.y, width: r.width, height: r.height) }
    static func color(_ c: StageMixLayout.RGBColor) -> StageMixMedia.RGBColor { .init(r: c.r, g: c.g, b: c.b) }
}
