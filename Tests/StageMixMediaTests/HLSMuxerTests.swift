import Foundation
import Testing
import StageMixTestSupport
import StageMixMedia

@Suite struct HLSMuxerTests {
    static let start = Date(timeIntervalSince1970: 1_795_197_600)  // 2026-11-20T18:00:00Z

    @Test(arguments: [HLSMuxer.SegmentType.mpegts, .fmp4])
    func vodPlaylistWithKeyframeAlignedSegments(_ type: HLSMuxer.SegmentType) throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let hls = try HLSMuxer(directory: dir.url, segmentDuration: 2, segmentType: type, programDateTimeStart: Self.start)
        let fps = 25, seconds = 5
        let video = try VideoEncoder(settings: VideoEncoderSettings(
            codecName: "libx264", width: 160, height: 120, frameRate: Rational(Int32(fps), 1),
            rateControl: .bitrate(500_000, maxRate: 600_000, bufferSize: 1_000_000),
            gopSize: 2 * fps, preset: "veryfast", threadCount: 1))
        let audio = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 96_000)
        let v = try hls.addStream(from: video)
        let a = try hls.addStream(from: audio)
        try hls.writeHeader()

        let canvas = try CanvasFrame(width: 160, height: 120)
        let samplesPerFrame = 48_000 / fps
        let tone = SyntheticMedia.sine(frequency: 440, count: seconds * 48_000)
        func drain() throws {
            while case .packet(let p) = try video.receive() { try hls.write(p, toStream: v) }
            while case .packet(let p) = try audio.receive() { try hls.write(p, toStream: a) }
        }
        for i in 0..<(fps * seconds) {
            try canvas.fill(color: RGBColor(r: UInt8(i * 2), g: 100, b: 50))
            try video.send(canvas, pts: Int64(i), forceKeyframe: i % (2 * fps) == 0)
            let block = Array(tone[(i * samplesPerFrame)..<((i + 1) * samplesPerFrame)])
            try audio.send(planar: [block, block])
            try drain()
        }
        try video.sendEndOfStream()
        try audio.sendEndOfStream()
        try drain()
        try hls.finish()

        let playlist = try String(contentsOf: hls.playlistURL, encoding: .utf8)
        #expect(playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(playlist.contains("#EXT-X-ENDLIST"))
        let lines = playlist.split(separator: "\n").map(String.init)
        let segments = lines.filter { !$0.hasPrefix("#") }
        let durations = lines.filter { $0.hasPrefix("#EXTINF:") }
            .map { Double($0.dropFirst(8).prefix { $0 != "," })! }
        #expect(segments.count == 3, "\(playlist)")
        #expect(durations.count == 3)
        #expect(abs(durations.reduce(0, +) - Double(seconds)) < 0.1)
        #expect(durations.dropLast().allSatisfy { abs($0 - 2) < 0.05 }, "\(durations)")

        let dates = lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
        #expect(dates.first == "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:00.000Z")
        #expect(dates.count == 3)
        if dates.count == 3 { #expect(dates[1] == "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:02.000Z") }

        for name in segments {
            let url = try playable(segment: dir.file(name), type: type, in: dir)
            let demuxer = try Demuxer(url: url)
            #expect(demuxer.streams.map(\.codecName).sorted() == ["aac", "h264"])
            var first: Packet?
            while let p = try demuxer.readPacket() {
                if demuxer.streams[p.streamIndex].mediaType == .video { first = p; break }
            }
            #expect(try #require(first).isKeyframe, "segment \(name) does not start on a keyframe")
        }
    }

    /// An fMP4 segment needs its init section in front to be read on its own.
    private func playable(segment: URL, type: HLSMuxer.SegmentType, in dir: ScratchDirectory) throws -> URL {
        guard type == .fmp4 else { return segment }
        let joined = dir.file(segment.deletingPathExtension().lastPathComponent + ".mp4")
        try (Data(contentsOf: dir.file("init.mp4")) + Data(contentsOf: segment)).write(to: joined)
        return joined
    }
}

@Suite struct HLSPlaylistDatesTests {
    @Test func restampsFromStartAndDurations() {
        let playlist = """
        #EXTM3U
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2031-01-01T09:30:00.000+0000
        #EXTINF:2.000000,
        segment_00000.ts
        #EXT-X-PROGRAM-DATE-TIME:2031-01-01T09:30:02.000+0000
        #EXTINF:1.520000,
        segment_00001.ts
        #EXT-X-PROGRAM-DATE-TIME:2031-01-01T09:30:03.520+0000
        #EXTINF:0.400000,
        segment_00002.ts
        #EXT-X-ENDLIST
        """
        let start = Date(timeIntervalSince1970: 1_795_197_600.250)
        let out = HLSPlaylistDates.rewriting(playlist, start: start)
        let dates = out.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
        #expect(dates == [
            "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:00.250Z",
            "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:02.250Z",
            "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:03.770Z",
        ])
        #expect(out.contains("segment_00001.ts\n#EXT-X-PROGRAM-DATE-TIME"))
        #expect(out.hasSuffix("#EXT-X-ENDLIST"))
    }
}
