import Testing
import StageMixGeometry
@testable import StageMixPipeline

/// What compose expects to write, from the settings alone.
@Suite("output space estimate")
struct OutputSpaceEstimateTests {
    let canvas = CanvasSize(width: 1280, height: 720)

    @Test func theBitratesTheContainersThePicturesAndTheReportsWithAMargin() {
        // An hour at 3 Mbit/s and 128 kbit/s: 1.408 GB of media, 8 % of MPEG-TS, 10 % margin, a poster, the reports.
        let settings = ComposeSettings(videoRate: .bitrate(3_000_000), audioBitrate: 128_000)
        let hour = OutputSpaceEstimate(settings: settings, canvas: canvas, fps: 30, seconds: 3600, chunked: false).bytes
        let media: Double = 3_128_000.0 * 3600 / 8 * 1.08 * 1.1
        #expect(hour == Int64(media.rounded(.down)) + 2_040_000)
        // composition.mp4 is the media again; a chunked run's staging holds the chunks' video too.
        var mp4 = settings
        mp4.mp4 = true
        let withMP4 = OutputSpaceEstimate(settings: mp4, canvas: canvas, fps: 30, seconds: 3600, chunked: false).bytes
        #expect(withMP4 > hour + 1_500_000_000)
        let chunked = OutputSpaceEstimate(settings: settings, canvas: canvas, fps: 30, seconds: 3600, chunked: true).bytes
        #expect(chunked > hour + 1_400_000_000 && chunked < withMP4)
        // A ladder counts every rendition; thumbnails every picture.
        var ladder = settings
        ladder.renditions = [Rendition(width: 1280, height: 720, rate: .bitrate(3_000_000)), Rendition(width: 640, height: 360, rate: .bitrate(800_000))]
        ladder.thumbnailSeconds = 10
        let laddered = OutputSpaceEstimate(settings: ladder, canvas: canvas, fps: 30, seconds: 3600, chunked: false).bytes
        let ladderMedia: Double = 3_928_000.0 * 3600 / 8 * 1.08 * 1.1
        let pictures: Int64 = 361 * 40_000
        #expect(laddered == Int64(ladderMedia.rounded(.down)) + 2_000_000 + pictures)
    }

    @Test func constantQualityIsEstimatedFromThePicturesSize() {
        let crf = ComposeSettings(videoRate: .crf(23), audioBitrate: 0)
        let small = OutputSpaceEstimate(settings: crf, canvas: CanvasSize(width: 640, height: 360), fps: 30, seconds: 600, chunked: false).bytes
        let large = OutputSpaceEstimate(settings: crf, canvas: canvas, fps: 30, seconds: 600, chunked: false).bytes
        #expect(abs((large - 2_040_000) - (small - 2_040_000) * 4) <= 4)
        // 720p30 at 0.05 bits a pixel: about 1.4 Mbit/s.
        let expected: Double = 1_382_400.0 * 600 / 8 * 1.08 * 1.1
        #expect(abs(Double(large - 2_040_000) - expected) < 10)
    }

    @Test func nothingToWriteIsTheReportsAndLengthsOfADayStayFinite() {
        let settings = ComposeSettings()
        #expect(OutputSpaceEstimate(settings: settings, canvas: canvas, fps: 30, seconds: 0, chunked: false).bytes == 2_040_000)
        #expect(OutputSpaceEstimate(settings: settings, canvas: canvas, fps: 30, seconds: -5, chunked: false).bytes == 2_040_000)
        let day = OutputSpaceEstimate(settings: settings, canvas: canvas, fps: 120, seconds: 86_400, chunked: true).bytes
        #expect(day > 0 && day < 1 << 50)
    }
}
