import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

extension ComposeEndToEndTests {
    /// What is written: HLS segments and their timing, fMP4, the MP4 beside them, thumbnails and the poster.
    @Suite("Outputs")
    struct Outputs {
        @Test func segmentsKeyframesDurationAndSync() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8)
            defer { c.cleanup() }
            let out = c.output
            #expect(out.playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
            #expect(out.playlist.contains("#EXT-X-ENDLIST"))
            #expect(out.playlist.contains("#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:00.000Z"))
            #expect(out.playlist.contains("#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:02.000Z"))
            #expect(out.segments.map(\.duration) == [2, 2, 2, 2])
            for segment in out.segments {
                let demuxer = try Demuxer(url: out.directory.appendingPathComponent(segment.file))
                let video = try #require(demuxer.firstStream(ofType: .video))
                var first: Packet?
                while let p = try demuxer.readPacket() { if p.streamIndex == video.index { first = p; break } }
                #expect(first?.isKeyframe == true, "\(segment.file) starts with a keyframe")
            }
            // Exactly the session: 8 s at 30 fps, and 8 s of audio.
            #expect(out.frames.count == 240)
            #expect(abs(Double(out.audio.count) / 48_000 - 8.0) < 1.0 / 30)
            // Audio and video start together (AAC priming aside) within one frame.
            #expect(abs(out.firstAudio + 1024.0 / 48_000 - out.firstVideo) < 1.0 / 30)
        }

        @Test func fmp4SegmentsPlayToo() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8, segmentSeconds: 4, format: .fmp4)
            defer { c.cleanup() }
            #expect(c.output.playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""))
            #expect(c.output.segments.map(\.duration) == [4, 4])
            try ComposeEndToEndTests.checkTiles(c, at: 3.0)
        }

        /// `--mp4`: one encode, two containers. The MP4 has its index (`moov`) before the media, and
        /// decodes to the same frames, tiles and A/V offset as the HLS beside it, which still plays.
        @Test func mp4IsMuxedFromTheSamePacketsWithItsIndexFirst() throws {
            let c = try ComposeEndToEndTests.compose(codec: .h264, segmentSeconds: 2, mp4: true)
            defer { c.cleanup() }
            let url = c.root.appendingPathComponent("out/composition.mp4")
            let data = try Data(contentsOf: url)
            var boxes: [String] = []
            var offset = 0
            while offset + 8 <= data.count {
                let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
                guard size >= 8 else { break }
                offset += size
            }
            #expect(boxes.first == "ftyp")
            let moov = try #require(boxes.firstIndex(of: "moov"), "\(boxes)")
            let mdat = try #require(boxes.firstIndex(of: "mdat"), "\(boxes)")
            #expect(moov < mdat, "faststart: \(boxes)")

            let file = try ComposedOutput(hls: c.output.directory, media: url)
            #expect(file.frames.count == c.output.frames.count)
            #expect(file.frames.count == 8 * 30)
            #expect(abs(file.audio.count - c.output.audio.count) <= 1024, "\(file.audio.count) vs \(c.output.audio.count)")
            #expect(abs((file.firstAudio - file.firstVideo) - (c.output.firstAudio - c.output.firstVideo)) < 0.034)
            var fromFile = c
            fromFile.output = file
            for t in [1.0, 3.0, 5.5] {
                try ComposeEndToEndTests.checkTiles(fromFile, at: t)
                try ComposeEndToEndTests.checkTiles(c, at: t)
            }
            #expect(c.output.segments.map(\.duration) == [2, 2, 2, 2])

            // The stage's events: Ana on stage from 0, Ben from 2 s (his pin), in the playlist as
            // EXT-X-DATERANGE at the session's dates, and as the MP4's chapters.
            #expect(StageEvent.of(try StageTimeline(capture: c.capture, pauseGraceMs: StageTimeline.defaultPauseGraceMs)).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" }
                    == ["0 joined-stage p-ana", "2000 joined-stage p-ben"])
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let benAt = formatter.string(from: c.capture.startedAt.addingTimeInterval(2))
            let tags = c.output.playlist.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-DATERANGE:") }
            #expect(tags.count == 2, "\(c.output.playlist)")
            #expect(tags.last == #"#EXT-X-DATERANGE:ID="stage-2",CLASS="dev.stagemix.stage",START-DATE="\#(benAt)",X-EVENT="joined-stage",X-PARTICIPANT="p-ben",X-NAME="Ben""#,
                    "\(tags)")
            let lines = c.output.playlist.split(separator: "\n").map(String.init)
            let benTag = try #require(lines.firstIndex { $0.contains("p-ben") })
            #expect(lines[(benTag + 1)...].first { !$0.hasPrefix("#EXT-X-DATERANGE") }?.hasPrefix("#EXTINF") == true, "placed before a segment")
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
            probe.arguments = ["-v", "error", "-show_chapters", "-of", "json", url.path]
            let pipe = Pipe()
            probe.standardOutput = pipe
            try probe.run()
            let json = pipe.fileHandleForReading.readDataToEndOfFile()
            probe.waitUntilExit()
            let chapters = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["chapters"] as? [[String: Any]])
            #expect(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == ["Ana joined the stage", "Ben joined the stage"])
            #expect(chapters.compactMap { $0["start_time"] as? String } == ["0.000000", "2.000000"])
            #expect(chapters.last?["end_time"] as? String == "8.000000")
        }

        /// `--thumbnails 2` on the 8 s scenario: four thumbnails of the composite at their times, a WebVTT
        /// track naming them, and the poster from 3.5 s, the middle of the first longest stretch where
        /// both Ana and Ben show video (Ana's camera is muted 5.0-6.5 s).
        @Test func thumbnailsAndPosterShowTheCompositeAtTheirTimes() throws {
            let c = try ComposeEndToEndTests.compose(codec: .vp8, thumbnails: 2)
            defer { c.cleanup() }
            let out = c.root.appendingPathComponent("out")
            let names = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbnails").path).sorted()
            #expect(names == ["00000.jpg", "00001.jpg", "00002.jpg", "00003.jpg"])
            let vtt = try String(contentsOf: out.appendingPathComponent("thumbnails.vtt"), encoding: .utf8)
            #expect(vtt.hasPrefix("WEBVTT\n"))
            #expect(vtt.contains("00:00:06.000 --> 00:00:08.000\nthumbnails/00003.jpg\n"), "\(vtt)")
            #expect(vtt.components(separatedBy: " --> ").count == 5)

            func check(_ picture: VideoFrame, scale: Double, at t: Double) throws {
                let interval = try #require(c.plan.interval(atMs: Int(t * 1000)))
                for tile in interval.tiles where tile.show == .video {
                    let want = try #require(c.colors[tile.participantId])
                    let x = Int(Double(tile.rect.x + tile.rect.width / 2) * scale)
                    let y = Int(Double(tile.rect.y + tile.rect.height * 3 / 4) * scale)
                    let got = try #require(picture.pixelRGB(x: x, y: y))
                    #expect(got.isClose(to: want, tolerance: 30), "t=\(t) \(tile.participantId) at (\(x),\(y)): \(got), want \(want)")
                }
                #expect(interval.tiles.filter { $0.show == .video }.count >= 1)
            }
            for k in 0..<4 {
                let thumb = try ComposeEndToEndTests.decodePicture(out.appendingPathComponent(String(format: "thumbnails/%05d.jpg", k)))
                #expect(thumb.width == 320 && thumb.height == 320 * c.plan.canvas.height / c.plan.canvas.width)
                try check(thumb, scale: 320 / Double(c.plan.canvas.width), at: Double(k * 2) + 0.01)
            }
            #expect(ThumbnailWriter.posterTimeMs(c.plan) == 3_500)
            let poster = try ComposeEndToEndTests.decodePicture(out.appendingPathComponent("poster.jpg"))
            #expect(poster.width == c.plan.canvas.width)
            try check(poster, scale: 1, at: 3.5)
            #expect(c.plan.interval(atMs: 3_500)?.tiles.filter { $0.show == .video }.count == 2)
        }
    }
}
