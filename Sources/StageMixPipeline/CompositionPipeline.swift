import Foundation
import StageMixCore
import StageMixLayout
import StageMixMedia

/// Runs a composition plan: decodes what each interval shows, composites, mixes, encodes H.264 and AAC,
/// and writes HLS into a directory. Frames and samples stream through; nothing holds a whole file.
public final class CompositionPipeline {
    public let capture: Capture
    public let plan: CompositionPlan
    public let settings: ComposeSettings

    public init(capture: Capture, plan: CompositionPlan, settings: ComposeSettings) {
        self.capture = capture
        self.plan = plan
        self.settings = settings
    }

    /// What a finished composition lost along the way.
    public struct Result: Sendable {
        public var frames: Int
        public var audioSamples: Int
        /// Media file to the reason it could not be read.
        public var lostMedia: [String: String]
        /// Every stretch in which a subscribed track was not shown or heard as planned.
        public var losses: [MediaLoss]
        /// Video frames decoded per layer file: only layers some tile showed appear.
        public var decodedFrames: [String: Int]
        /// Where the CPU went: the decoding thread by stage, and the encoders.
        public var cpuSeconds: CPUSeconds
        /// The loudness pass's gains and the output's measured loudness.
        public var loudness: LoudnessReport
        /// Where a tile showed another layer than planned, because the planned one had no picture there.
        public var layerStandIns: [LayerStandIn]
    }

    /// Total output frames: the session's duration at the plan's frame rate, rounded up.
    public var frameCount: Int { (plan.durationMs * plan.fps + 999) / 1000 }

    /// Writes `index.m3u8` and its segments into `hlsDirectory` (which must exist).
    /// `progress` is called about twice a second; `shouldStop` is polled once per frame.
    /// With `mp4`, the same packets also go into that file: one encode, two containers.
    /// With `pictures`, thumbnails, the poster and the WebVTT track go into that folder.
    public func run(hlsDirectory: URL, mp4: URL? = nil, pictures: URL? = nil, progress: (ComposeProgress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Result {
        let cpuStart = CurrentThread.processCPUSeconds
        let fps = plan.fps
        let gop = max(1, Int((settings.segmentSeconds * Double(fps)).rounded()))
        let rate: VideoEncoderSettings.RateControl
        switch settings.videoRate {
        case .bitrate(let bps): rate = .bitrate(bps, maxRate: bps, bufferSize: bps * 2)
        case .crf(let crf): rate = .crf(crf)
        }
        let video = try VideoEncoder(settings: VideoEncoderSettings(
            codecName: "libx264", width: plan.canvas.width, height: plan.canvas.height,
            frameRate: Rational(Int32(fps), 1), rateControl: rate, gopSize: gop, preset: settings.preset,
            // MP4 wants SPS/PPS out of band; MPEG-TS segments then get them from the muxer before each keyframe.
            threadCount: settings.encoderThreads, globalHeader: settings.segmentFormat == .fmp4 || mp4 != nil,
            options: ["sc_threshold": "0"]))
        let audio = try AudioEncoder(sampleRate: AudioTrackReader.sampleRate, channels: 2,
                                     bitrate: settings.audioBitrate, globalHeader: settings.segmentFormat == .fmp4 || mp4 != nil)
        let muxer = try HLSMuxer(directory: hlsDirectory, segmentDuration: settings.segmentSeconds,
                                 segmentType: settings.segmentFormat, programDateTimeStart: plan.startedAt)
        let videoStream = try muxer.addStream(from: video)
        let audioStream = try muxer.addStream(from: audio)
        try muxer.writeHeader()
        // Progressive MP4: `faststart` moves the index (moov) before the media once the file is whole.
        let file = try mp4.map { url throws(MediaError) in try Muxer(url: url, format: "mp4") }
        let fileStreams = try file.map { file throws(MediaError) in (try file.addStream(from: video), try file.addStream(from: audio)) }
        try file?.writeHeader(options: ["movflags": "+faststart"])
        let thumbnails = try settings.thumbnailSeconds.flatMap { seconds in
            try pictures.map { try ThumbnailWriter(directory: $0, plan: plan, seconds: seconds) }
        }

        // The audio-only loudness pass runs first: the gains must be known before the first block is mixed.
        let levels = try settings.loudnessLUFS.map {
            try LoudnessAnalysis(capture: capture, plan: plan, targetLUFS: $0).run(shouldStop: shouldStop)
        }
        let loudnessCPU = CurrentThread.processCPUSeconds - cpuStart
        let producer = try FrameProducer(capture: capture, plan: plan, frameCount: plan.intervals.isEmpty ? 0 : frameCount,
                                         levels: levels)
        let producerDone = DispatchSemaphore(value: 0)
        producer.start(finished: producerDone)
        // Whatever happens here, the decoding thread is stopped and waited for before returning.
        defer {
            producer.ready.close()
            producer.free.close()
            producerDone.wait()
        }

        let started = Date()
        var lastReport = started
        var samplesDone = 0
        func drain(_ output: () throws(MediaError) -> EncoderOutput, stream: Int) throws {
            while case .packet(let packet) = try output() {
                try muxer.write(packet, toStream: stream)
                // Stream indexes match: both containers add video, then audio. Each write takes a new
                // reference to the packet's data, never a copy.
                try file?.write(packet, toStream: stream == videoStream ? fileStreams!.0 : fileStreams!.1)
            }
        }

        while let next = producer.ready.take() {
            if shouldStop() { throw CancellationError() }
            let frame = try next.get()
            try video.send(frame.canvas, pts: Int64(frame.index), forceKeyframe: frame.index % gop == 0)
            try thumbnails?.take(frame.canvas, index: frame.index)
            producer.free.put(frame.canvas)
            try drain(video.receive, stream: videoStream)
            if !frame.audio[0].isEmpty {
                try audio.send(planar: frame.audio)
                samplesDone += frame.audio[0].count
            }
            try drain(audio.receive, stream: audioStream)

            let now = Date()
            if now.timeIntervalSince(lastReport) >= 0.5 {
                lastReport = now
                progress(ComposeProgress(composedSeconds: Double(frame.index) / Double(fps),
                                         totalSeconds: Double(plan.durationMs) / 1000,
                                         elapsedSeconds: now.timeIntervalSince(started)))
            }
        }
        try video.sendEndOfStream()
        try drain(video.receive, stream: videoStream)
        try audio.sendEndOfStream()
        try drain(audio.receive, stream: audioStream)
        try muxer.finish()
        try file?.finish()
        try thumbnails?.finish(durationMs: plan.durationMs)
        progress(ComposeProgress(composedSeconds: Double(plan.durationMs) / 1000,
                                 totalSeconds: Double(plan.durationMs) / 1000,
                                 elapsedSeconds: Date().timeIntervalSince(started)))
        return Result(frames: frameCount, audioSamples: samplesDone,
                      lostMedia: producer.lostMedia, losses: producer.ledger.losses(in: plan), decodedFrames: producer.decodedFrames,
                      cpuSeconds: CPUSeconds(total: CurrentThread.processCPUSeconds - cpuStart, clock: producer.clock,
                                             loudnessPass: loudnessCPU),
                      loudness: LoudnessReport(
                        targetLUFS: levels?.targetLUFS, inputLUFS: levels?.inputLUFS,
                        outputLUFS: finite(producer.outputMeter.integratedLUFS),
                        outputTruePeakDBTP: finite(producer.outputMeter.truePeakDBTP),
                        trackGainDB: levels?.trackGainDB ?? [:], masterGainDB: levels?.masterGainDB ?? 0),
                      layerStandIns: producer.layerStandIns)
    }
}

/// Nil for the meter's `-inf` (silence), which JSON cannot carry.
private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
