import Foundation
import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// One output frame, painted and mixed, on its way to the encoders.
struct ComposedFrame: @unchecked Sendable {
    var index: Int
    var canvas: CanvasFrame
    /// Stereo planes of the audio that ends with this frame.
    var audio: [[Float]]
}

/// The decoding side of a composition, on a thread of its own: for each output frame it decodes the
/// shown layers, paints a canvas and mixes the audio, while the encoder works on earlier frames.
/// Decoding never runs on the encoder's thread, nor on Swift's cooperative pool: both block in C.
final class FrameProducer: @unchecked Sendable {
    private let plan: CompositionPlan
    private let compositor: CanvasPainter
    private let mix: AudioMix
    let ready: Handoff<Result<ComposedFrame, any Error>>
    /// Canvases the encoder is done with.
    let free: Handoff<CanvasFrame>
    private let frameCount: Int
    private let totalSamples: Int
    /// What the readers could not deliver; read after the thread is done.
    let ledger = LossLedger()

    /// Canvases in flight: one painting, one queued, one encoding.
    static let canvasCount = 3

    /// Measures what goes to the AAC encoder.
    let outputMeter: LoudnessMeter

    init(capture: Capture, plan: CompositionPlan, frameCount: Int, levels: LoudnessAnalysis.Result? = nil) throws(MediaError) {
        self.plan = plan
        self.frameCount = frameCount
        compositor = CanvasPainter(capture: capture, canvas: plan.canvas, fps: plan.fps, ledger: ledger)
        mix = AudioMix(capture: capture, ledger: ledger, levels: levels)
        outputMeter = try LoudnessMeter(channels: 2, sampleRate: MediaTime.sampleRate)
        ready = Handoff(capacity: Self.canvasCount - 1)
        free = Handoff(capacity: Self.canvasCount)
        for _ in 0..<Self.canvasCount { free.put(try compositor.makeCanvas()) }
        totalSamples = MediaTime.samples(ms: plan.durationMs)
    }

    /// Media files that could not be read; read after the thread is done.
    var lostMedia: [String: String] { compositor.lostMedia.merging(mix.lostMedia) { a, _ in a } }
    var warnings: [String] { compositor.warnings }
    var decodedFrames: [String: Int] { compositor.decoded.framesByFile }
    var layerStandIns: [LayerStandIn] { compositor.standIns.stretches }
    /// CPU seconds the thread spent, by stage; read after it is done.
    private(set) var clock = StageClock()

    /// Starts the thread; `finished` is signalled when it ends.
    func start(finished: DispatchSemaphore) {
        let thread = Thread { [self] in
            CurrentThread.setName("stagemix-decode")
            clock = StageClock()
            produce()
            clock.charge(.other)
            ready.close()
            finished.signal()
        }
        thread.start()
    }

    private func produce() {
        let fps = plan.fps
        var intervalIndex = 0
        var samplesDone = 0
        for n in 0..<frameCount {
            guard let canvas = free.take() else { return }
            clock.charge(.other)
            do {
                let tMs = MediaTime.ms(atFrame: n, fps: fps)
                while intervalIndex + 1 < plan.intervals.count, plan.intervals[intervalIndex].endMs <= tMs { intervalIndex += 1 }
                let interval = plan.intervals[intervalIndex]
                try compositor.paint(interval, background: plan.background, at: Double(n) / Double(fps), on: canvas,
                                     clock: &clock)

                // The audio up to the end of this frame, in blocks that never cross an interval boundary.
                let audioEnd = min(totalSamples, MediaTime.sample(atFrame: n + 1, fps: fps))
                var planes: [[Float]] = [[], []]
                while samplesDone < audioEnd {
                    let at = MediaTime.ms(atSample: samplesDone)
                    let current = plan.interval(atMs: at) ?? interval
                    let boundary = MediaTime.samples(ms: current.endMs)
                    let count = max(1, min(audioEnd, boundary) - samplesDone)
                    // Read where the session has it: later than the output by what edits cut before here.
                    mix.append(current, start: current.sessionSample(samplesDone), count: count, to: &planes)
                    samplesDone += count
                }
                outputMeter.add(planar: planes)
                clock.charge(.audioDecodeMix)
                guard ready.put(.success(ComposedFrame(index: n, canvas: canvas, audio: planes))) else { return }
            } catch {
                ready.put(.failure(error))
                return
            }
        }
    }
}
