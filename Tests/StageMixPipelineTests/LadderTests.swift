import Foundation
import StageMixTestSupport
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

/// `--renditions`: one composite, several encodes. Each rendition decoded back at its own size with
/// the right tiles, keyframes at the same instants in all, and a master playlist a player can choose by.
@Suite("ABR ladder", .serialized)
struct LadderTests {
    struct Decoded {
        var width = 0, height = 0
        /// Decoded frames by time (seconds from the first).
        var frames: [(time: Double, frame: VideoFrame)] = []
        /// Times of the keyframe packets.
        var keyframes: [Double] = []
        var segments: [Double] = []
        var playlist = ""
    }

    /// Decodes a media playlist's first video stream.
    static func decode(_ playlist: URL) throws -> Decoded {
        var d = Decoded()
        d.playlist = try String(contentsOf: playlist, encoding: .utf8)
        d.segments = d.playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst(8).split(separator: ",")[0]) }
        let demuxer = try Demuxer(url: playlist)
        let stream = try #require(demuxer.firstStream(ofType: .video))
        let decoder = try VideoDecoder(stream: stream)
        func take() throws { while case .frame(let f) = try decoder.receive() { d.frames.append((f.seconds ?? 0, f)) } }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream.index else { continue }
            if packet.isKeyframe, let t = packet.ptsSeconds { d.keyframes.append(t) }
            try decoder.send(packet)
            try take()
        }
        try decoder.send(nil)
        try take()
        d.frames.sort { $0.time < $1.time }
        let first = d.frames.first?.time ?? 0
        d.frames = d.frames.map { ($0.time - first, $0.frame) }
        d.keyframes = d.keyframes.map { (($0 - first) * 1000).rounded() / 1000 }.sorted()
        d.width = stream.width
        d.height = stream.height
        return d
    }

    @Test func everyRenditionShowsTheCompositeAtItsSizeWithAlignedKeyframes() throws {
        MediaLog.setLevel(.error)
        let root = ScratchDirectory("ladder").url
        defer { try? FileManager.default.removeItem(at: root) }
        let expected = try CaptureSynthesizer(codec: .h264).synthesize(ComposeEndToEndTests.scenario(), to: root.appendingPathComponent("capture"))
        let capture = try CaptureReader.read(directory: root.appendingPathComponent("capture"))
        // The canvas is the largest rendition's size.
        let layout = try Layout.resolve("grid").resized(to: CanvasSize(width: 640, height: 360))
        let doc = try PlanDocument(capture: capture, layout: layout)
        let renditions = [Rendition(width: 640, height: 360, rate: .bitrate(1_500_000)),
                          Rendition(width: 320, height: 180, rate: .bitrate(400_000)),
                          Rendition(width: 160, height: 90, rate: .bitrate(150_000), fps: 15)]
        let out = root.appendingPathComponent("out")
        _ = try ComposeRun(capture: capture, document: doc, settings: ComposeSettings(
            segmentSeconds: 2, preset: "ultrafast", mp4: true, renditions: renditions)).run(out: out)
        let hls = out.appendingPathComponent("hls")
        var colors: [String: RGBColor] = [:]
        for p in expected.participants { colors[p.id] = try RGBColor(hex: p.color) }

        // The master playlist: the audio rendition, then each variant largest first with what a player chooses by.
        let master = try String(contentsOf: hls.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let lines = master.split(separator: "\n").map(String.init)
        #expect(lines.first == "#EXTM3U")
        #expect(lines.contains(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Stage",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8""#), "\(master)")
        let variants = lines.indices.filter { lines[$0].hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(variants.count == 3, "\(master)")
        for (k, line) in variants.enumerated() {
            let r = renditions[k]
            let attributes = Self.attributes(lines[line])
            #expect(lines[line + 1] == "\(r.name)/index.m3u8")
            #expect(attributes["RESOLUTION"] == r.name)
            #expect(attributes["FRAME-RATE"] == (r.fps == 15 ? "15.000" : "30.000"))
            #expect(attributes["AUDIO"] == #""audio""#)
            let codecs = try #require(attributes["CODECS"])
            #expect(codecs.range(of: #"^"avc1\.[0-9A-F]{6},mp4a\.40\.2"$"#, options: .regularExpression) != nil, "\(codecs)")
            let peak = try #require(attributes["BANDWIDTH"].flatMap { Int($0) })
            let average = try #require(attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) })
            #expect(average > 0 && average <= peak, "\(lines[line])")
            // What the playlist announces is what its segments weigh.
            let video = try MediaPlaylistBitrate.measure(hls.appendingPathComponent("\(r.name)/index.m3u8"))
            let audio = try MediaPlaylistBitrate.measure(hls.appendingPathComponent("audio/index.m3u8"))
            #expect(peak == video.peak + audio.peak && average == video.average + audio.average)
            #expect(audio.average > 100_000 && audio.average < 200_000, "128 kb/s AAC in TS: \(audio)")
        }
        // Each rendition decodes at its size, frame rate and tiles, with keyframes and segments at the same instants.
        var keyframes: [[Double]] = []
        for r in renditions {
            let d = try Self.decode(hls.appendingPathComponent("\(r.name)/index.m3u8"))
            #expect((d.width, d.height) == (r.width, r.height))
            #expect(d.frames.count == (r.fps == 15 ? 8 * 15 : 8 * 30), "\(r.name): \(d.frames.count) frames")
            #expect(d.segments == [2, 2, 2, 2], "\(r.name): \(d.segments)")
            #expect(d.playlist.components(separatedBy: "#EXT-X-DATERANGE:").count == 3, "both stage events in \(r.name)")
            keyframes.append(d.keyframes)
            let scale = Double(r.width) / 640
            for t in [1.0, 3.0] {
                let frame = try #require(d.frames.last { $0.time <= t + 0.001 }?.frame)
                let interval = try #require(doc.plan.interval(atMs: Int(t * 1000)))
                #expect(interval.tiles.count == (t < 2 ? 1 : 2))
                for tile in interval.tiles {
                    let want = try #require(colors[tile.participantId])
                    let x = Int(Double(tile.rect.x + tile.rect.width / 2) * scale)
                    let y = Int(Double(tile.rect.y + tile.rect.height * 3 / 4) * scale)
                    let got = try #require(frame.pixelRGB(x: x, y: y))
                    #expect(got.isClose(to: want, tolerance: 30), "\(r.name) t=\(t) \(tile.participantId) at (\(x),\(y)): \(got), want \(want)")
                }
            }
        }
        #expect(keyframes.allSatisfy { $0 == [0, 2, 4, 6] }, "\(keyframes)")

        // One audio rendition, the whole session long; the MP4 carries the largest rendition and it.
        // Its segments are the video's: no 21 ms one-AAC-frame segment after the last (the encoder's padding is dropped).
        let audioPlaylist = try String(contentsOf: hls.appendingPathComponent("audio/index.m3u8"), encoding: .utf8)
        let audioSegments = audioPlaylist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0]) }
        #expect(audioSegments.count == 4 && audioSegments.allSatisfy { abs($0 - 2) < 0.03 }, "\(audioSegments)")
        let audio = try Demuxer(url: hls.appendingPathComponent("audio/index.m3u8"))
        #expect(audio.firstStream(ofType: .video) == nil)
        #expect(audio.firstStream(ofType: .audio)?.codecName == "aac")
        let mp4 = try Demuxer(url: out.appendingPathComponent("composition.mp4"))
        #expect(mp4.firstStream(ofType: .video)?.width == 640)
        #expect(mp4.firstStream(ofType: .audio) != nil)
        #expect(abs((mp4.duration ?? 0) - 8) < 0.1)
    }

    /// The peak is over runs of segments of 0.5 to 1.5 target durations: a short last segment that
    /// starts with a keyframe is not a second of its own.
    @Test func peakBandwidthIsOverRunsOfAboutOneTargetDuration() {
        let even = MediaPlaylistBitrate.of([(8e6, 4), (12e6, 4), (8e6, 4)], targetDuration: 4)
        #expect(even == MediaPlaylistBitrate(peak: 3_000_000, average: 2_333_334))
        let shortTail = MediaPlaylistBitrate.of([(8e6, 4), (8e6, 4), (1e6, 0.1)], targetDuration: 4)
        #expect(shortTail.peak == Int((9e6 / 4.1).rounded(.up)), "not 10 Mb/s from the 0.1 s tail: \(shortTail)")
        #expect(MediaPlaylistBitrate.of([(1e6, 1)], targetDuration: 4) == MediaPlaylistBitrate(peak: 1_000_000, average: 1_000_000))
        #expect(MediaPlaylistBitrate.of([], targetDuration: 4) == MediaPlaylistBitrate(peak: 0, average: 0))
    }

    /// `NAME=VALUE` pairs of a tag, quoted values kept quoted (commas inside quotes do not split).
    static func attributes(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        var current = "", quoted = false
        func flush() {
            let parts = current.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
            current = ""
        }
        for ch in line.drop(while: { $0 != ":" }).dropFirst() {
            if ch == "\"" { quoted.toggle() }
            if ch == ",", !quoted { flush() } else { current.append(ch) }
        }
        flush()
        return result
    }
}
