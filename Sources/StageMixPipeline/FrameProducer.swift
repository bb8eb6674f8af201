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
    /// The mix, unless the audio is made elsewhere (a chunk of a chunked run paints video only).
    let audio: FrameAudio?
    let ready: Handoff<Result<ComposedFrame, any Error>>
    /// Canvases the encoder is done with.
    let free: Handoff<CanvasFrame>
    /// The output frames to make: all of them, or a chunk's.
    private let frames: Range<Int>
    /// What the readers could not deliver; read after the thread is done.
    let ledger = LossLedger()

    /// Canvases in flight: one painting, one queued, one encoding.
    static let canvasCount = 3

    /// Paints `frames`, starting where the first one is: each track opens at its latest keyframe
    /// before it, decoded up to it and not painted. `mixesAudio` false leaves the frames' audio empty.
    init(capture: Capture, plan: CompositionPlan, frames: Range<Int>, mixesAudio: Bool = true,
         levels: LoudnessAnalysis.Result? = nil) throws(MediaError) {
        self.plan = plan
        self.frames = frames
        compositor = CanvasPainter(capture: capture, canvas: plan.canvas, fps: plan.fps, ledger: ledger)
        audio = mixesAudio ? try FrameAudio(capture: capture, plan: plan, ledger: ledger, levels: MixLevels(levels)) : nil
        ready = Handoff(capacity: Self.canvasCount - 1)
        free = Handoff(capacity: Self.canvasCount)
        for _ in 0..<Self.canvasCount { free.put(try compositor.makeCanvas()) }
    }

    /// Media files that could not be read; read after the thread is done.
    var lostMedia: [String: String] { compositor.lostMedia.merging(audio?.lostMedia ?? [:]) { a, _ in a } }
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

    /// Starts the thread and hands `each` every frame in order on the calling thread, polling
    /// `shouldStop` before each; on every way out the thread is stopped and waited for.
    func run(shouldStop: () -> Bool, each: (ComposedFrame) throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        start(finished: done)
        defer {
            ready.close()
            free.close()
            done.wait()
        }
        while let next = ready.take() {
            if shouldStop() { throw CancellationError() }
            try each(try next.get())
        }
    }

    private func produce() {
        var intervals = FrameIntervals(plan: plan)
        for n in frames {
            guard let canvas = free.take() else { return }
            clock.charge(.other)
            do {
                let interval = intervals.interval(atFrame: n)
                try compositor.paint(interval, background: plan.background, at: Double(n) / Double(plan.fps), on: canvas,
                                     clock: &clock)
                let planes = audio?.samples(endingFrame: n, interval: interval) ?? [[], []]
                clock.charge(.audioDecodeMix)
                guard ready.put(.success(ComposedFrame(index: n, canvas: canvas, audio: planes))) else { return }
            } catch {
                ready.put(.failure(error))
                return
            }
        }
    }
}
