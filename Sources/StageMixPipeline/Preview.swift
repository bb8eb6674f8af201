public import Foundation
public import StageMixCapture
public import StageMixPlan
import StageMixMedia
import StageMixTime

/// A still of the composite at one session time, painted exactly as the composition paints it.
public enum Preview {
    /// `sessionSeconds` is session time, as edit files and `timeline.json`'s events are; `output` is the
    /// timeline's clock when edits took time out (then the frame is the output's at that instant).
    /// The still's file format: PNG, or JPEG (as the poster is written).
    public enum Format: String, Sendable, CaseIterable {
        case png, jpeg

        /// The format a file name asks for by its extension (`.png`, `.jpg`, `.jpeg`), nil for others.
        public init?(fileName: String) {
            switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg
            default: return nil
            }
        }
    }

    public static func write(capture: Capture, plan: CompositionPlan, output: OutputClock? = nil,
                             atSessionSeconds sessionSeconds: Double, format: Format = .png, to url: URL) throws {
        let sessionMs = MediaTime.ms(holdingSeconds: sessionSeconds)
        let sessionDurationMs = output?.sessionDurationMs ?? plan.durationMs
        guard (0..<sessionDurationMs).contains(sessionMs) else {
            throw PreviewError(message: String(format: "%.3f s is at or past the end of the session, which lasts %.3f s (session time)",
                                               sessionSeconds, MediaTime.seconds(ms: sessionDurationMs)))
        }
        var ms = sessionMs
        if let output {
            guard let kept = output.outputMs(sessionMs: sessionMs) else {
                let pieces = output.pieces.map { String(format: "%.3f-%.3f s", MediaTime.seconds(ms: $0.sessionFromMs), MediaTime.seconds(ms: $0.sessionToMs)) }
                throw PreviewError(message: String(format: "%.3f s of the session was removed by the edits (trim or cut); kept: %@",
                                                   sessionSeconds, pieces.joined(separator: ", ")))
            }
            ms = kept
        }
        let t = MediaTime.seconds(ms: ms) + (sessionSeconds - MediaTime.seconds(ms: sessionMs))
        guard let interval = plan.interval(atMs: ms) else {
            throw PreviewError(message: String(format: "%.3f s is outside the composition (it lasts %.3f s)", sessionSeconds, MediaTime.seconds(ms: plan.durationMs)))
        }
        let compositor = CanvasPainter(capture: capture, canvas: plan.canvas, fps: plan.fps, ledger: LossLedger())
        let canvas = try compositor.makeCanvas()
        var unused = StageClock()
        try compositor.paint(interval, background: plan.background, at: t, on: canvas, clock: &unused)
        switch format {
        case .png:
            try PNGWriter.write(canvas, to: url)
        case .jpeg:
            try JPEGWriter(width: plan.canvas.width, height: plan.canvas.height,
                           sourceWidth: plan.canvas.width, sourceHeight: plan.canvas.height).write(canvas, to: url)
        }
    }
}

/// A preview asked for an instant the session does not have: a value of `--at` (exit 64).
public struct PreviewError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
