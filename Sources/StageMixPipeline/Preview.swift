import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// A still of the composite at one session time, painted exactly as the composition paints it.
public enum Preview {
    public static func write(capture: Capture, plan: CompositionPlan, atSeconds t: Double, to url: URL) throws {
        let ms = MediaTime.ms(holdingSeconds: t)
        guard let interval = plan.interval(atMs: ms) else {
            throw PreviewError(message: String(format: "%.3f s is outside the session (0 to %.3f s)", t, MediaTime.seconds(ms: plan.durationMs)))
        }
        let compositor = CanvasPainter(capture: capture, canvas: plan.canvas, fps: plan.fps, ledger: LossLedger())
        let canvas = try compositor.makeCanvas()
        var unused = StageClock()
        try compositor.paint(interval, background: plan.background, at: t, on: canvas, clock: &unused)
        try PNGWriter.write(canvas, to: url)
    }
}

/// A preview asked for something the session does not have.
public struct PreviewError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
