import Foundation
import Testing
import StageMixTestSupport
@testable import StageMixMedia

/// The compact segment list the playlists are written from, and the muxer that fills it from
/// libavformat's short window of segments.
@Suite struct HLSMediaPlaylistTests {
    static func window(sequence: Int, _ segments: [(String, String)]) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n#EXT-X-INDEPENDENT-SEGMENTS\n"
            + segments.map { "#EXTINF:\($0.1),\n\($0.0)\n" }.joined()
    }

    @Test func takesEachSegmentOnceAcrossWindowsAndWritesThemAll() throws {
        var list = HLSMediaPlaylist()
        #expect(try list.take(window: Self.window(sequence: 0, [("s0.ts", "2.000000"), ("s1.ts", "2.000000")])) == 2)
        // The next window has slid on: one segment seen already, one new.
        #expect(try list.take(window: Self.window(sequence: 1, [("s1.ts", "2.000000"), ("s2.ts", "1.520000")])) == 1)
        #expect(list.count == 3)
        let start = Date(timeIntervalSince1970: 1_795_197_600.25)  // 2026-11-20T18:00:00.250Z
        let text = list.text(ended: true, programDateTimeStart: start)
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXTINF:2.000000,
            #EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:00.250Z
            s0.ts
            #EXTINF:2.000000,
            #EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:02.250Z
            s1.ts
            #EXTINF:1.520000,
            #EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:04.250Z
            s2.ts
            #EXT-X-ENDLIST

            """)
        #expect(list.text(ended: false, programDateTimeStart: nil).contains("#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-INDEPENDENT"))
        #expect(!list.text(ended: false, programDateTimeStart: nil).contains("ENDLIST"))
    }

    @Test func aWindowPastTheNextSegmentIsAnError() throws {
        var list = HLSMediaPlaylist()
        _ = try list.take(window: Self.window(sequence: 0, [("s0.ts", "2.000000")]))
        #expect(throws: MediaError.self) { try list.take(window: Self.window(sequence: 2, [("s2.ts", "2.000000")])) }
    }

    /// Program date times are counted in integers: 86,400 segments whose durations a `Double` cannot
    /// hold exactly (0.1 s) still land on the millisecond.
    @Test func manySegmentsLandOnTheMillisecond() throws {
        var list = HLSMediaPlaylist()
        let count = 86_400
        var window = "#EXTM3U\n#EXT-X-TARGETDURATION:0\n#EXT-X-MEDIA-SEQUENCE:0\n"
        window.reserveCapacity(count * 30)
        for index in 0..<count { window += "#EXTINF:0.100000,\nx\(index).ts\n" }
        #expect(try list.take(window: window) == count)
        let text = list.text(ended: true, programDateTimeStart: Date(timeIntervalSince1970: 1_795_197_600.25))
        let last = text.split(separator: "\n").last { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }
        #expect(last == "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T20:24:00.150Z")
    }

    @Test func timestampsAreUTCToTheMillisecond() {
        #expect(HLSMediaPlaylist.timestamp(ms: 0) == "1970-01-01T00:00:00.000Z")
        #expect(HLSMediaPlaylist.timestamp(ms: 1_795_197_600_250) == "2026-11-20T18:00:00.250Z")
        #expect(HLSMediaPlaylist.timestamp(ms: 7_258_118_399_999) == "2199-12-31T23:59:59.999Z")
        #expect(HLSMediaPlaylist.microseconds("4.000000") == 4_000_000)
        #expect(HLSMediaPlaylist.microseconds("0.5") == 500_000)
        #expect(HLSMediaPlaylist.decimal(4_021_333) == "4.021333")
    }

    /// More segments than libavformat's window holds, each read before it leaves the window: the
    /// playlist lists every one, in order, with its program date time.
    @Test func theMuxerListsMoreSegmentsThanItsWindow() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let start = Date(timeIntervalSince1970: 1_795_197_600.25)
        let hls = try HLSMuxer(directory: dir.url, segmentDuration: 0.5, programDateTimeStart: start)
        let fps = 10, seconds = 40
        let video = try VideoEncoder(settings: VideoEncoderSettings(
            codecName: "libx264", width: 64, height: 36, frameRate: Rational(Int32(fps), 1),
            rateControl: .bitrate(100_000, maxRate: 100_000, bufferSize: 200_000),
            gopSize: fps / 2, preset: "ultrafast", threadCount: 1))
        let v = try hls.addStream(from: video)
        try hls.writeHeader()
        let canvas = try CanvasFrame(width: 64, height: 36)
        for i in 0..<(fps * seconds) {
            try canvas.fill(color: RGBColor(r: UInt8(i % 256), g: 100, b: 50))
            try video.send(canvas, pts: Int64(i), forceKeyframe: i % (fps / 2) == 0)
            while case .packet(let p) = try video.receive() { try hls.write(p, toStream: v) }
        }
        try video.sendEndOfStream()
        while case .packet(let p) = try video.receive() { try hls.write(p, toStream: v) }
        try hls.finish()

        let segments = seconds * 2
        #expect(segments > HLSMuxer.window)
        let lines = try String(contentsOf: hls.playlistURL, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.hasPrefix("#") } == (0..<segments).map { String(format: "segment_%05d.ts", $0) })
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") }.allSatisfy { $0 == "#EXTINF:0.500000," })
        #expect(lines.last { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") } == "#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:39.750Z")
        // libavformat's window is gone; only the playlist and the segments are left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { !$0.hasPrefix("segment_") } == ["index.m3u8"])
    }
}
