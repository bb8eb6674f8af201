import StageMixOptions
import StageMixPipeline

extension ComposeSettings {
    /// The encoder settings of validated options, defaults filled in.
    init(_ options: ComposeOptions) {
        self.init(
            segmentSeconds: options.segmentSeconds ?? ComposeOptions.defaultSegmentSeconds,
            segmentFormat: options.segmentFormat == "fmp4" ? .fmp4 : .mpegts,
            preset: options.preset ?? ComposeOptions.defaultPreset,
            videoRate: options.crf.map { .crf($0) }
                ?? .bitrate(options.videoBitrate.flatMap(ComposeOptions.bitrate) ?? ComposeOptions.defaultVideoBitrate),
            audioBitrate: options.audioBitrate.flatMap(ComposeOptions.bitrate) ?? ComposeOptions.defaultAudioBitrate,
            encoderThreads: options.encoderThreads ?? 0,
            loudnessLUFS: options.loudnessTarget,
            mp4: options.mp4 ?? false,
            thumbnailSeconds: options.thumbnails,
            renditions: (options.ladder ?? []).map {
                Rendition(width: $0.width, height: $0.height, rate: .bitrate($0.bitrate), fps: $0.fps)
            })
    }
}
