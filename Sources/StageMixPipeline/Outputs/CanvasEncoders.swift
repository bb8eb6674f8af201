import Foundation
import StageMixPlan
import StageMixOptions
import StageMixMedia

/// Everything fed the composed canvases: one H.264 encoder per rendition (the first inline, the
/// others on threads of their own) and the thumbnail writer. Where the encoded packets go is each
/// rendition's routes: the output's containers in a whole run, a chunk's files in a chunk.
final class CanvasEncoders {
    let renditions: [VideoRendition]
    private let inline: [any CanvasSink]
    private let threads: [SinkThread]

    /// `frames` are the output frames these encoders get (a chunk's, or all), for the thumbnails.
    init(plan: CompositionPlan, settings: ComposeSettings, mp4: Bool, pictures: URL?, frames: Range<Int>) throws {
        let ladder = !settings.renditions.isEmpty
        let wanted = ladder ? settings.renditions
            : [Rendition(width: plan.canvas.width, height: plan.canvas.height, rate: settings.videoRate)]
        let keyframeEvery = RenditionSpec.keyframeInterval(canvasFps: plan.fps, segmentSeconds: settings.segmentSeconds)
        let globalHeader = CompositionOutputs.needsGlobalHeader(settings, mp4: mp4)
        renditions = try wanted.map {
            try VideoRendition($0, canvas: (plan.canvas.width, plan.canvas.height), canvasFps: plan.fps,
                               keyframeEvery: keyframeEvery, settings: settings, globalHeader: globalHeader)
        }
        let thumbnails = try settings.thumbnailSeconds.flatMap { seconds in
            try pictures.map { try ThumbnailWriter(directory: $0, plan: plan, seconds: seconds, frames: frames) }
        }
        inline = [renditions[0]] + (thumbnails.map { [$0] } ?? [])
        threads = renditions.dropFirst().map { SinkThread($0, name: "stagemix-\($0.rendition.name)") }
    }

    /// Hands composed frame `index` to every sink; `giveBack` gets the canvas once all have taken it.
    func take(_ canvas: CanvasFrame, index: Int, giveBack: @escaping (CanvasFrame) -> Void) throws {
        let lease = CanvasLease(canvas, index: index, holders: threads.count + 1, giveBack: giveBack)
        defer { lease.release() }
        // The threads first, so that they scale and encode while this thread does. Each gets the
        // lease (and lets go of it) even when another has failed, so the canvas always goes back.
        var failure: (any Error)?
        for thread in threads {
            do { try thread.post(lease) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        for sink in inline { try sink.take(canvas, index: index) }
    }

    /// Flushes every encoder into its routes and finishes the thumbnails.
    func finish() throws {
        for sink in inline { try sink.finish() }
        for thread in threads { try thread.finish() }
    }

    /// Stops the rendition threads and waits for them, dropping what they have not taken; every way
    /// out goes through here (after `finish`, they have ended already).
    func stop() {
        for thread in threads { thread.join(abandoning: true) }
    }
}
