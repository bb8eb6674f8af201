import Testing
import StageMixOptions
import StageMixPlan
import StageMixPipeline

/// Compose's settings take their defaults from ``ComposeOptions`` and nowhere else.
@Suite("Compose settings")
struct ComposeSettingsTests {
    @Test func noOptionsGiveTheDefaultSettings() {
        let fromOptions = ComposeSettings(ComposeOptions()), plain = ComposeSettings()
        #expect(fromOptions.segmentSeconds == 4 && plain.segmentSeconds == 4)
        #expect(fromOptions.segmentFormat == .mpegts && plain.segmentFormat == .mpegts)
        #expect(fromOptions.preset == "veryfast" && plain.preset == "veryfast")
        #expect(fromOptions.videoRate == .bitrate(3_000_000) && plain.videoRate == .bitrate(3_000_000))
        #expect(fromOptions.audioBitrate == 128_000 && plain.audioBitrate == 128_000)
        #expect(fromOptions.encoderThreads == 0 && plain.encoderThreads == 0)
        #expect(fromOptions.loudnessLUFS == -16 && plain.loudnessLUFS == -16)
        #expect(!fromOptions.mp4 && !plain.mp4)
        #expect(fromOptions.thumbnailSeconds == nil && plain.thumbnailSeconds == nil)
        #expect(fromOptions.renditions.isEmpty && plain.renditions.isEmpty)
        #expect(StageTimeline.defaultPauseGraceMs == 3_000)
    }

    @Test func givenOptionsAreKept() {
        let settings = ComposeSettings(ComposeOptions(segmentSeconds: 2, segmentFormat: "fmp4", preset: "ultrafast",
                                                      videoBitrate: "800k", audioBitrate: "64k", encoderThreads: 2,
                                                      loudness: "off", mp4: true, thumbnails: 5))
        #expect(settings.segmentSeconds == 2)
        #expect(settings.segmentFormat == .fmp4)
        #expect(settings.preset == "ultrafast")
        #expect(settings.videoRate == .bitrate(800_000))
        #expect(settings.audioBitrate == 64_000)
        #expect(settings.encoderThreads == 2)
        #expect(settings.loudnessLUFS == nil)
        #expect(settings.mp4)
        #expect(settings.thumbnailSeconds == 5)
        #expect(ComposeSettings(ComposeOptions(crf: 20)).videoRate == .crf(20))
    }
}
