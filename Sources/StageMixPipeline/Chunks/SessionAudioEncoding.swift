import Foundation
public import StageMixCapture
import StageMixPlan
import StageMixMedia
import StageMixTime

/// The session's audio of a chunked composition, in the process that does it beside the chunks: the
/// loudness pass, then the whole session mixed frame by frame (``FrameAudio``: the blocks, limiter and
/// gains of a whole run) and AAC-encoded by the encoder a whole run opens, its packets written with
/// the frame each came out after (``AudioPacketFile``), then its result. So the AAC stream the join
/// remuxes is a whole run's, bit for bit.
public struct SessionAudioEncoding: Sendable {
    public let job: SessionAudioJob

    public init(job: SessionAudioJob) { self.job = job }

    /// Run in a process of its own: the result's CPU is the whole process's, from its start.
    @discardableResult
    public func run(capture: Capture, shouldStop: () -> Bool = { false }) throws -> SessionAudioResult {
        let started = Date()
        let plan = job.plan
        let settings = ComposeSettings(job.options)
        let levels = try settings.loudnessLUFS.map {
            try LoudnessAnalysis(capture: capture, plan: plan, targetLUFS: $0).run(shouldStop: shouldStop)
        }
        let loudnessCPU = CurrentThread.processCPUSeconds
        let ledger = LossLedger()
        let audio = try FrameAudio(capture: capture, plan: plan, ledger: ledger, levels: MixLevels(levels))
        let encoder = try CompositionOutputs.audioEncoder(settings, mp4: settings.mp4)
        let file = try AudioPacketFile(url: job.packetsFile, timeBase: encoder.timeBase)
        let frameCount = plan.intervals.isEmpty ? 0 : MediaTime.frameCount(ms: plan.durationMs, fps: plan.fps)
        var intervals = FrameIntervals(plan: plan)
        var clock = StageClock()
        var samples = 0
        // AAC is the encoders' share, as in a whole run (where it runs on the encoding thread), not the clock's.
        var aacSeconds = 0.0
        func encoding(_ body: () throws -> Void) rethrows {
            let before = CurrentThread.cpuSeconds
            defer { aacSeconds += CurrentThread.cpuSeconds - before }
            try body()
        }
        for n in 0..<frameCount {
            // As often as a chunk looks: a stopped run's audio stops within a few frames.
            if n % 8 == 0, shouldStop() { throw CancellationError() }
            clock.charge(.other)
            let planes = audio.samples(endingFrame: n, interval: intervals.interval(atFrame: n))
            clock.charge(.audioDecodeMix)
            try encoding {
                if !planes[0].isEmpty { try encoder.send(planar: planes) }
                while case .packet(let packet) = try encoder.receive() { try file.write(packet, afterFrame: Int64(n)) }
            }
            samples += planes[0].count
        }
        try encoding {
            try encoder.sendEndOfStream()
            while case .packet(let packet) = try encoder.receive() { try file.write(packet, afterFrame: AudioPacketFile.atEnd) }
            try file.finish()
        }
        clock.charge(.other)
        var cpu = CPUSeconds(total: CurrentThread.processCPUSeconds, clock: clock, loudnessPass: loudnessCPU)
        let aac = min((aacSeconds * 1000).rounded() / 1000, cpu.decodeThread)
        cpu.decodeThread -= aac
        cpu.encodeMux += aac
        let result = SessionAudioResult(
            samples: samples, packets: file.packets, loudness: LoudnessReport(levels: levels, audio: audio),
            cpuSeconds: cpu,
            wallSeconds: Date().timeIntervalSince(started), lostMedia: audio.lostMedia, lossNotes: ledger.notesTaken)
        try result.write(to: job.resultFile)
        return result
    }
}
