/// Splits the decoding thread's CPU time between the stages of a frame. The thread's CPU clock is read
/// once at each boundary and the time since the previous one is charged to the stage that just ended,
/// so the split costs one clock read per tile and stage, not a profiler.
struct StageClock {
    enum Stage: Int, CaseIterable {
        /// Demuxing and decoding video layers (LayerReader, libavcodec).
        case videoDecode
        /// Scaling or copying pictures into the canvas, fills (Scaler, CanvasFrame).
        case videoCompose
        /// Reading, decoding, resampling and mixing audio, the limiter (AudioMix).
        case audioDecodeMix
        /// Everything else on the thread: the frame loop, handing canvases over.
        case other
    }

    private var seconds = [Double](repeating: 0, count: Stage.allCases.count)
    private var last = CurrentThread.cpuSeconds

    /// Charges the CPU time since the previous boundary to `stage`.
    mutating func charge(_ stage: Stage) {
        let now = CurrentThread.cpuSeconds
        seconds[stage.rawValue] += now - last
        last = now
    }

    subscript(stage: Stage) -> Double { seconds[stage.rawValue] }

    /// Everything charged so far, all stages.
    var total: Double { seconds.reduce(0, +) }
}
