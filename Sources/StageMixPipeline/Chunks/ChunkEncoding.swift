import Foundation
public import StageMixCapture
import StageMixPlan
import StageMixMedia

/// The work of one chunk, in the process that runs it: paints the chunk's frames (each shown track
/// opened at its latest keyframe before the first, decoded up to it, not painted), encodes every
/// rendition starting with an IDR frame, and writes its video files, thumbnails and result. No
/// audio: a chunked run mixes and encodes it once, for the whole session, at the join.
public struct ChunkEncoding: Sendable {
    public let job: ChunkJob

    public init(job: ChunkJob) { self.job = job }

    /// Run in a process of its own: the result's CPU is the whole process's, from its start.
    @discardableResult
    public func run(capture: Capture, shouldStop: () -> Bool = { false }) throws -> ChunkResult {
        let started = Date()
        let settings = ComposeSettings(job.options)
        let encoders = try CanvasEncoders(plan: job.plan, settings: settings, mp4: settings.mp4,
                                          pictures: job.pictures.map { URL(fileURLWithPath: $0) }, frames: job.frames)
        defer { encoders.stop() }
        var files: [ChunkVideoFile] = []
        for (index, rendition) in encoders.renditions.enumerated() {
            let file = try ChunkVideoFile(url: job.videoFile(rendition: index), encoder: rendition.encoder)
            rendition.routes.append(file, stream: 0)
            files.append(file)
        }
        let producer = try FrameProducer(capture: capture, plan: job.plan, frames: job.frames, mixesAudio: false)
        let free = producer.free
        try producer.run(shouldStop: shouldStop) { frame in
            try encoders.take(frame.canvas, index: frame.index) { free.put($0) }
        }
        try encoders.finish()
        for file in files { try file.finish() }
        let result = ChunkResult(
            index: job.index, from: job.from, to: job.to, reorderDelayFrames: files.map(\.reorderDelay),
            packets: files.map(\.packets),
            cpuSeconds: CPUSeconds(total: CurrentThread.processCPUSeconds, clock: producer.clock),
            wallSeconds: Date().timeIntervalSince(started), lostMedia: producer.lostMedia, warnings: producer.warnings,
            lossNotes: producer.ledger.notesTaken, decodedFrames: producer.decodedFrames,
            layerStandIns: producer.layerStandIns)
        try result.write(to: job.resultFile)
        return result
    }
}
