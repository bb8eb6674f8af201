import Foundation
import StageMixPlan
import StageMixMedia
import StageMixPublishing
import StageMixTime

/// `--thumbnails N`: a small JPEG of the composite every N seconds (`thumbnails/00000.jpg`...), a
/// WebVTT track pointing at them for players' scrubbing previews (`thumbnails.vtt`), and
/// `poster.jpg`, the composite at full size from the middle of the earliest longest stretch with the
/// most participants showing video. Taken from the canvas the encoder gets: no second composite.
final class ThumbnailWriter: CanvasSink {
    /// Thumbnail width; the height keeps the canvas's shape.
    static let width = 320

    let directory: URL
    let seconds: Double
    let everyFrames: Int
    let posterFrame: Int
    let durationMs: Int
    private let small: JPEGWriter
    private let poster: JPEGWriter
    /// Every thumbnail of the output, whichever frames this writer gets.
    private let count: Int
    /// Whether this writer gets the output's last frame: then it writes the WebVTT track.
    private let writesTrack: Bool

    /// `frames` are the output frames this writer is given: all of them, or a chunk's.
    init(directory: URL, plan: CompositionPlan, seconds: Double, frames: Range<Int>) throws {
        self.directory = directory
        self.seconds = seconds
        let fps = max(1, plan.fps)
        everyFrames = max(1, MediaTime.frames(seconds: seconds, fps: fps))
        posterFrame = MediaTime.frame(atMs: Self.posterTimeMs(plan), fps: fps)
        durationMs = plan.durationMs
        let frameCount = plan.intervals.isEmpty ? 0 : MediaTime.frameCount(ms: plan.durationMs, fps: fps)
        count = (frameCount + everyFrames - 1) / everyFrames
        writesTrack = frames.upperBound >= frameCount
        let width = min(Self.width, plan.canvas.width)
        let height = max(2, (plan.canvas.height * width / max(1, plan.canvas.width)) & ~1)
        small = try JPEGWriter(width: width, height: height, sourceWidth: plan.canvas.width, sourceHeight: plan.canvas.height)
        poster = try JPEGWriter(width: plan.canvas.width, height: plan.canvas.height,
                                sourceWidth: plan.canvas.width, sourceHeight: plan.canvas.height, quality: 3)
        // Chunks write into the same folder side by side; none makes the folder it is in, which a stopped run removes.
        let thumbnails = directory.appendingPathComponent(OutputFiles.thumbnails)
        if !FileManager.default.fileExists(atPath: thumbnails.path) {
            do {
                try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: false)
            } catch where FileManager.default.fileExists(atPath: thumbnails.path) {}
        }
    }

    /// When the poster is taken: the middle of the earliest interval with the most tiles showing
    /// video (a held frame counts; a placeholder does not), ties going to the longer interval.
    static func posterTimeMs(_ plan: CompositionPlan) -> Int {
        func showing(_ interval: PlanInterval) -> Int { interval.tiles.filter { $0.show != .placeholder }.count }
        var best: PlanInterval?
        for interval in plan.intervals where interval.durationMs > 0 {
            guard let current = best else { best = interval; continue }
            if showing(interval) > showing(current) || (showing(interval) == showing(current) && interval.durationMs > current.durationMs) {
                best = interval
            }
        }
        guard let best else { return 0 }
        return best.startMs + best.durationMs / 2
    }

    static func name(_ index: Int) -> String { String(format: "thumbnails/%05d.jpg", index) }

    /// Every thumbnail of `plan` taken every `seconds`: the output instant it shows, and its file.
    static func list(plan: CompositionPlan, seconds: Double) -> [(ms: Int, file: String)] {
        let fps = max(1, plan.fps)
        let every = max(1, MediaTime.frames(seconds: seconds, fps: fps))
        let frameCount = plan.intervals.isEmpty ? 0 : MediaTime.frameCount(ms: plan.durationMs, fps: fps)
        return (0..<(frameCount + every - 1) / every).map { index in (index * every * 1000 / fps, name(index)) }
    }

    /// Called with every output frame's canvas, in order.
    func take(_ canvas: CanvasFrame, index: Int) throws {
        if index % everyFrames == 0 {
            try small.write(canvas, to: directory.appendingPathComponent(Self.name(index / everyFrames)))
        }
        if index == posterFrame { try poster.write(canvas, to: directory.appendingPathComponent(OutputFiles.poster)) }
    }

    /// Writes `thumbnails.vtt`, if this writer got the last frame: one cue per thumbnail, until the end of the output.
    func finish() throws {
        guard writesTrack else { return }
        var vtt = "WEBVTT\n"
        for k in 0..<count {
            let start = MediaTime.ms(seconds: Double(k) * seconds)
            let end = min(durationMs, MediaTime.ms(seconds: Double(k + 1) * seconds))
            guard end > start else { break }
            vtt += "\n\(Self.timestamp(start)) --> \(Self.timestamp(end))\n\(Self.name(k))\n"
        }
        try Data(vtt.utf8).write(to: directory.appendingPathComponent(OutputFiles.thumbnailTrack), options: .atomic)
    }

    static func timestamp(_ ms: Int) -> String {
        String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }
}
