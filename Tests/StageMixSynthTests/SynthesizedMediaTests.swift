import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixMedia
import StageMixProbe
import StageMixSynth

@Suite struct SynthesizedMediaTests {
    @Test(arguments: SynthCodec.allCases)
    func captureReaderAcceptsItWithNoMissingMedia(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        let capture = try CaptureReader.read(directory: fixture.directory)
        #expect(CaptureReader.missingMedia(in: capture).isEmpty)
        #expect(capture.durationMs == 3_500)
        #expect(capture.track("TR_maya_cam")?.startOffsetMs == 0)
        #expect(capture.track("TR_omar_cam")?.startOffsetMs == 500)
        #expect(capture.track("TR_omar_cam")?.layers.map(\.file)
                == ["low", "medium", "high"].map { "media/TR_omar_cam-\($0).\(codec.fileExtension)" })
    }

    @Test(arguments: SynthCodec.allCases)
    func everyLayerDecodesAtItsSizeInItsColour(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        for track in fixture.expected.tracks {
            guard let layers = track.layers, let hex = track.color else { continue }
            let colour = try RGBColor(hex: hex)
            for layer in layers {
                let (stream, _, frames) = try decodeAllVideo(fixture.directory.appendingPathComponent(layer.file))
                #expect(stream.codecName == codec.decoderName)
                #expect(stream.width == layer.width && stream.height == layer.height, "\(layer.file)")
                #expect(frames.count == layer.frames && frames.count > 0, "\(layer.file): \(frames.count) frames")
                for frame in frames {
                    #expect(frame.width == layer.width && frame.height == layer.height)
                    let centre = try #require(frame.pixelRGB(x: layer.width / 2, y: layer.height / 2))
                    #expect(centre.isClose(to: colour, tolerance: 12), "\(layer.file): centre \(centre), want \(colour)")
                }
            }
        }
    }

    @Test(arguments: SynthCodec.allCases)
    func framesExistOnlyWhilePublishedAndNotPaused(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        let timeline = try #require(TrackMediaTimeline.all(in: SynthFixture.scenario)["TR_omar_cam"])
        let track = try #require(fixture.expected.track("TR_omar_cam"))
        for layer in track.layers ?? [] {
            let (_, firstPts, frames) = try decodeAllVideo(fixture.directory.appendingPathComponent(layer.file))
            let times = frames.compactMap(\.seconds).map { Double(track.startOffsetMs) + ($0 - firstPts) * 1000 }
            #expect(times.count == frames.count)
            // The file's first frame is the track's startOffsetMs: the publish time.
            #expect(abs((frames.first?.seconds ?? -1) - firstPts) < 0.001)
            for t in times { #expect(timeline.isFlowing(atMs: t + 0.5), "\(layer.file): frame at \(t) ms") }
            #expect(!times.contains { (1_500.0..<2_300).contains($0) }, "a frame during the pause")
            #expect(times.contains { (2_300.0..<2_340).contains($0) }, "no frame right after the pause")
            #expect((times.last ?? 0) < 3_000 && (times.last ?? 0) > 2_950)
            // The first picture after the pause is a keyframe, so the stream resumes at once.
            let resumed = try #require(frames.first { ($0.seconds ?? 0) * 1000 + 500 - firstPts * 1000 >= 2_299 })
            #expect(resumed.isKeyframe)
        }
    }

    @Test(arguments: SynthCodec.allCases)
    func theMarkerMovesAcrossTheTop(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        let layer = try #require(fixture.expected.track("TR_maya_cam")?.layers?.first { $0.quality == "medium" })
        let (_, firstPts, frames) = try decodeAllVideo(fixture.directory.appendingPathComponent(layer.file))
        let colour = try RGBColor(hex: SynthFixture.scenario.participants[0].color)
        let early = TestPattern.marker(width: layer.width, height: layer.height, atMs: 0)
        let late = TestPattern.marker(width: layer.width, height: layer.height, atMs: 2_000)
        #expect(late.x > early.x + early.width, "the marker should have moved clear of its first place")
        let first = frames[0], second = try #require(frames.first { abs(($0.seconds ?? 0) - firstPts - 2) < 0.001 })
        func centre(_ r: Rect) -> (Int, Int) { (r.x + r.width / 2, r.y + r.height / 2) }
        #expect(try #require(first.pixelRGB(x: centre(early).0, y: centre(early).1)).isClose(to: .white, tolerance: 30))
        #expect(try #require(second.pixelRGB(x: centre(early).0, y: centre(early).1)).isClose(to: colour, tolerance: 12))
        #expect(try #require(second.pixelRGB(x: centre(late).0, y: centre(late).1)).isClose(to: .white, tolerance: 30))
    }

    @Test(arguments: SynthCodec.allCases)
    func microphonePlaysTheParticipantsTone(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        let track = try #require(fixture.expected.track("TR_maya_mic"))
        let tone = try #require(track.toneHz)
        #expect(tone == 310)
        let samples = try decodeAllOpus(fixture.directory.appendingPathComponent(try #require(track.file)))
        #expect(abs(samples.count - 3_500 * 48) <= 960, "\(samples.count) samples for 3.5 s")
        for start in stride(from: 4_800, to: samples.count - 9_600, by: 24_000) {
            let f = Goertzel.dominantFrequency(samples[start..<(start + 9_600)], range: 100...2500)
            #expect(abs(f - tone) <= 10, "block at \(start): \(f) Hz")
        }
        // Omar's mic is silence, and only from his publish (0.5 s) to his leaving (3 s).
        let omar = try decodeAllOpus(fixture.directory.appendingPathComponent("media/TR_omar_mic.ogg"))
        #expect(abs(omar.count - 2_500 * 48) <= 960)
        #expect(omar.map(abs).max() ?? 1 < 0.001)
    }

    @Test(arguments: SynthCodec.allCases)
    func probeFindsEveryLayerDecodableAndTheSilentMic(_ codec: SynthCodec) throws {
        let fixture = try SynthFixture.shared(codec)
        let report = try CaptureProbe().probe(directory: fixture.directory)
        let video = report.streams.filter { $0.quality != nil }
        #expect(video.count == 6)
        for s in video {
            #expect(s.opens && s.decodes, "\(s.file): \(s.error ?? "")")
            #expect(s.codec == codec.decoderName)
            #expect(s.decoded == 5)
        }
        #expect(video.first { $0.trackId == "TR_omar_cam" }?.firstKeyframeMs == 500)
        let high = try #require(video.first { $0.trackId == "TR_maya_cam" && $0.quality == "high" })
        #expect(high.width == 1280 && high.height == 720)
        #expect(abs((high.durationSeconds ?? 0) - 3.5) < 0.05)
        let maya = try #require(report.streams.first { $0.trackId == "TR_maya_mic" })
        let omar = try #require(report.streams.first { $0.trackId == "TR_omar_mic" })
        #expect(maya.silent == false && maya.decodes)
        #expect(omar.silent == true && omar.decodes)
        #expect(report.problems.map(\.trackId) == ["TR_omar_mic"])
        #expect(ProbeTextReport.render(report).contains("SILENT"))
    }

    @Test func probeOfAMissingFileSaysItCannotOpen() throws {
        let source = try SynthFixture.shared(.vp8)
        let scratch = ScratchDirectory("probe")
        defer { scratch.remove() }
        let dir = scratch.file("probe")
        try FileManager.default.copyItem(at: source.directory, to: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("media/TR_maya_cam-low.webm"))
        try Data("not a webm".utf8).write(to: dir.appendingPathComponent("media/TR_maya_cam-high.webm"))
        let report = try CaptureProbe().probe(directory: dir)
        let low = try #require(report.streams.first { $0.file == "media/TR_maya_cam-low.webm" })
        let high = try #require(report.streams.first { $0.file == "media/TR_maya_cam-high.webm" })
        #expect(!low.opens && low.error != nil)
        #expect(!high.opens || !high.decodes)
        #expect(report.problems.count == 3)
    }

    @Test func probeOfAnInvalidCaptureThrowsTheReadersError() throws {
        let scratch = ScratchDirectory("probe")
        defer { scratch.remove() }
        let dir = scratch.file("probe")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(#"{"format": "nope"}"#.utf8).write(to: dir.appendingPathComponent("session.json"))
        #expect(throws: CaptureError.self) { try CaptureProbe().probe(directory: dir) }
    }
}
