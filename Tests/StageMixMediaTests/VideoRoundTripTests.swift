import Foundation
import Testing
import StageMixTestSupport
import StageMixMedia

@Suite struct VideoRoundTripTests {
    struct Case: CustomStringConvertible, Sendable {
        let codec: String
        let format: String
        let file: String
        let decoder: String
        var description: String { "\(codec) in \(format)" }
    }

    static let cases = [
        Case(codec: "libvpx", format: "webm", file: "solid.webm", decoder: "vp8"),
        Case(codec: "libx264", format: "mp4", file: "solid.mp4", decoder: "h264"),
        Case(codec: "libvpx-vp9", format: "webm", file: "solid-vp9.webm", decoder: "vp9"),
    ]

    @Test(arguments: cases)
    func solidColourSurvivesEncodeAndDecode(_ c: Case) throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file(c.file)
        let colour = RGBColor(r: 200, g: 40, b: 60)
        let settings = VideoEncoderSettings(codecName: c.codec, width: 160, height: 120, frameRate: Rational(25, 1),
                                            rateControl: .bitrate(800_000), gopSize: 25,
                                            preset: c.codec == "libx264" ? "veryfast" : "realtime", threadCount: 1,
                                            // VP8 is BT.601 by definition: its decoders report bt470bg whatever was meant.
                                            colourSpace: c.codec == "libvpx" ? .bt601 : .bt709)
        try SyntheticMedia.writeSolidVideo(to: url, format: c.format, settings: settings, color: colour, frames: 12)

        let demuxer = try Demuxer(url: url)
        let stream = try #require(demuxer.firstStream(ofType: .video))
        #expect(stream.codecName == c.decoder)
        #expect(stream.width == 160 && stream.height == 120)

        let frames = try SyntheticMedia.decodeVideo(url)
        #expect(frames.count == 12)
        let times = frames.compactMap(\.seconds)
        #expect(times.count == 12)
        for (i, t) in times.enumerated() {
            #expect(abs(t - (Double(i) / 25 + times[0])) < 0.002, "frame \(i) at \(t) s")
        }
        #expect(abs(times[0]) < 0.05)
        for frame in [frames[0], frames[11]] {
            #expect(frame.width == 160 && frame.pixelFormat == .yuv420p)
            for (x, y) in [(5, 5), (80, 60), (150, 110)] {
                let pixel = try #require(frame.pixelRGB(x: x, y: y))
                #expect(pixel.isClose(to: colour, tolerance: 8), "pixel (\(x),\(y)) is \(pixel)")
            }
        }
    }

    @Test func seekLandsOnKeyframeAtOrBefore() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file("seek.webm")
        let settings = VideoEncoderSettings(codecName: "libvpx", width: 64, height: 48, frameRate: Rational(25, 1),
                                            rateControl: .bitrate(300_000), gopSize: 10, preset: "realtime", threadCount: 1)
        try SyntheticMedia.writeSolidVideo(to: url, format: "webm", settings: settings, color: .white, frames: 30)
        let demuxer = try Demuxer(url: url)
        try demuxer.seek(toSeconds: 0.7, streamIndex: 0)
        let packet = try #require(try demuxer.readPacket())
        #expect(packet.isKeyframe)
        let t = try #require(packet.ptsSeconds)
        #expect(t <= 0.7 && t >= 0.4 - 0.001, "landed at \(t)")
    }

    @Test func unknownEncoderIsUnsupported() {
        let settings = VideoEncoderSettings(codecName: "no-such-encoder", width: 64, height: 48, frameRate: Rational(25, 1))
        #expect { try VideoEncoder(settings: settings) } throws: { ($0 as? MediaError)?.code == .unsupportedCodec }
    }
}
