import Foundation
import StageMixTime

/// One rendition of `--renditions`: `1280x720@3000k`, optionally with its own frame rate,
/// `640x360@800k@15`. The list is written widest first or in any order; the largest is the canvas.
public struct RenditionSpec: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Bits per second.
    public var bitrate: Int
    /// Frames per second; nil for the canvas's. It must divide the canvas's frame rate.
    public var fps: Int?

    public init(width: Int, height: Int, bitrate: Int, fps: Int? = nil) {
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.fps = fps
    }

    public var pixels: Int { width * height }

    /// At most this many renditions: a six-rung ladder covers phones to 4K.
    public static let maxCount = 6

    /// Parses a comma-separated ladder; nil when any rendition is not `WxH@RATE[@FPS]` within the
    /// output limits (sizes, bitrates and frame rates of the single-rendition options).
    public static func list(_ text: String) -> [RenditionSpec]? {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...maxCount).contains(items.count) else { return nil }
        var specs: [RenditionSpec] = []
        for item in items {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "@", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), let size = ComposeOptions.size(String(parts[0])),
                  let bitrate = ComposeOptions.bitrate(String(parts[1])), ComposeOptions.videoBitrateRange.contains(bitrate) else { return nil }
            var fps: Int?
            if parts.count == 3 {
                guard parts[2].count <= 3, let value = Int(parts[2]), ComposeOptions.fpsRange.contains(value) else { return nil }
                fps = value
            }
            specs.append(RenditionSpec(width: size.width, height: size.height, bitrate: bitrate, fps: fps))
        }
        return specs
    }

    /// Why this rendition cannot be made from a canvas at `canvasFps` cut into segments of
    /// `segmentSeconds`, or nil when it can: its frames must be every k-th canvas frame, and each
    /// segment must hold whole frames of it, so that keyframes fall at the same instants in all.
    public func problem(canvasFps: Int, segmentSeconds: Double) -> String? {
        guard let rate = fps else { return nil }
        guard rate <= canvasFps, canvasFps % rate == 0 else {
            return "frame rate \(rate) of \(width)x\(height) must divide the output's \(canvasFps) frames per second"
        }
        let keyframeEvery = Self.keyframeInterval(canvasFps: canvasFps, segmentSeconds: segmentSeconds)
        guard keyframeEvery % (canvasFps / rate) == 0 else {
            return "frame rate \(rate) of \(width)x\(height) does not give whole frames per segment of \(keyframeEvery) output frames"
        }
        return nil
    }

    /// Output frames between keyframes: one segment's worth, at least 1.
    public static func keyframeInterval(canvasFps: Int, segmentSeconds: Double) -> Int {
        max(1, MediaTime.frames(seconds: segmentSeconds, fps: canvasFps))
    }

    /// The list largest first (by pixels; the first written wins a tie).
    public static func ordered(_ specs: [RenditionSpec]) -> [RenditionSpec] {
        specs.enumerated().sorted { ($1.element.pixels, $0.offset) < ($0.element.pixels, $1.offset) }.map(\.element)
    }
}
