import Foundation
import StageMixTestSupport
import StageMixMedia
import StageMixSynth
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `stagemix compose --chunk-seconds S --jobs N` against a whole run of the same sample capture, as
/// the built executable runs them: nobody can tell one output from the other but by report.json.
@Suite("Chunked compose", .serialized)
struct ChunkedComposeTests {
    static let panel = Repository.root.appendingPathComponent("Samples/panel")

    struct Runs {
        var root: URL
        var whole: URL
        var chunked: URL
        func cleanup() { try? FileManager.default.removeItem(at: root) }
    }

    /// Composes `capture` (the panel sample, or what `scenario` synthesises) whole and in chunks with
    /// the same options, each into its own folder.
    static func compose(_ options: [String], chunk: [String], scenario: Scenario? = nil,
                        damage: (URL) throws -> Void = { _ in }) throws -> Runs {
        MediaLog.setLevel(.error)
        let root = ScratchDirectory("chunks").url
        let runs = Runs(root: root, whole: root.appendingPathComponent("whole"), chunked: root.appendingPathComponent("chunked"))
        var capture = panel
        if let scenario {
            capture = root.appendingPathComponent("capture")
            try CaptureSynthesizer().synthesize(scenario, to: capture)
            try damage(capture)
        }
        let whole = try CommandLineTests.run(["compose", capture.path, "--out", runs.whole.path] + options)
        try #require(whole.status == 0, "whole run: \(whole.stderr)")
        let chunked = try CommandLineTests.run(["compose", capture.path, "--out", runs.chunked.path] + options + chunk)
        try #require(chunked.status == 0, "chunked run: \(chunked.stderr)")
        return runs
    }

    /// What nobody may tell apart in a single-rendition output: the playlist, the documents made from
    /// the plan, every packet's timestamps, the decoded frames and pictures, and the audio sample for
    /// sample (at each chunk boundary, `boundaries` in seconds, a keyframe starts the chunk).
    static func expectSame(_ runs: Runs, boundaries: [Double], fps: Double = 30) throws {
        let playlist = try text(runs.whole.appendingPathComponent("hls/index.m3u8"))
        #expect(try text(runs.chunked.appendingPathComponent("hls/index.m3u8")) == playlist)
        for name in ["timeline.json", "billing.json", "plan.json"] {
            #expect(try Data(contentsOf: runs.chunked.appendingPathComponent(name)) == Data(contentsOf: runs.whole.appendingPathComponent(name)), "\(name)")
        }
        let names = { (url: URL) in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
        #expect(try names(runs.chunked) == names(runs.whole), "the same files, and no work folder left")
        #expect(try names(runs.chunked.appendingPathComponent("hls")) == names(runs.whole.appendingPathComponent("hls")))
        #expect(try names(runs.root).filter { $0.hasPrefix(".") }.isEmpty, "no staging folder left beside the outputs")

        // Packet by packet, every stream: the same timestamps and keyframes.
        let whole = try packets(runs.whole.appendingPathComponent("hls/index.m3u8"))
        let chunked = try packets(runs.chunked.appendingPathComponent("hls/index.m3u8"))
        #expect(chunked.count == whole.count)
        #expect(chunked.map(\.0) == whole.map(\.0) && chunked.map(\.1) == whole.map(\.1) && chunked.map(\.2) == whole.map(\.2))
        #expect(chunked.map(\.3) == whole.map(\.3))

        // Decoded: the same frames at the same times, the same pictures; the same audio sample for sample.
        let a = try ComposedOutput(hls: runs.whole.appendingPathComponent("hls"))
        let b = try ComposedOutput(hls: runs.chunked.appendingPathComponent("hls"))
        #expect(b.frames.count == a.frames.count)
        #expect(b.frames.map(\.time) == a.frames.map(\.time))
        for boundary in boundaries {
            #expect(b.frames[Int(boundary * fps)].frame.isKeyframe, "the chunk at \(boundary) s starts with a keyframe")
        }
        var worst = 0
        for (x, y) in zip(a.frames, b.frames) { worst = max(worst, difference(x.frame, y.frame)) }
        #expect(worst <= 24, "every frame shows the same tiles and people (largest channel difference \(worst))")
        #expect(b.audio.count == a.audio.count)
        #expect(b.firstAudio == a.firstAudio && b.firstVideo == a.firstVideo, "A/V offset as in the whole run")
        for boundary in boundaries {
            // Around each boundary: no gap, no repeat, no priming: the whole run's samples exactly.
            let at = Int(boundary * 48_000)
            #expect(Array(b.audio[(at - 4_800)..<(at + 4_800)]) == Array(a.audio[(at - 4_800)..<(at + 4_800)]), "audio at \(boundary) s")
        }
        #expect(b.audio == a.audio)
    }

    /// Every packet of a playlist's streams: (stream, pts, dts, keyframe), in the order read.
    static func packets(_ playlist: URL) throws -> [(Int, Int64?, Int64?, Bool)] {
        let demuxer = try Demuxer(url: playlist)
        var all: [(Int, Int64?, Int64?, Bool)] = []
        while let packet = try demuxer.readPacket() { all.append((packet.streamIndex, packet.pts, packet.dts, packet.isKeyframe)) }
        return all
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// `ffprobe -show_chapters` of an MP4, as JSON text.
    static func chapters(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-show_chapters", "-of", "json", url.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The largest difference of any colour channel between two frames, over a grid of points.
    static func difference(_ a: VideoFrame, _ b: VideoFrame) -> Int {
        var worst = 0
        for gx in 0..<16 {
            for gy in 0..<9 {
                let x = (gx * 2 + 1) * a.width / 32, y = (gy * 2 + 1) * a.height / 18
                guard let p = a.pixelRGB(x: x, y: y), let q = b.pixelRGB(x: x, y: y) else { return Int.max }
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        return worst
    }

    /// The speaker layout (turns found from the microphones), MP4 with chapters, thumbnails: chunks of
    /// 8 s (two segments of 4 s; the last chunk 6 s) on two processes.
    @Test func chunksJoinIntoTheWholeRunsOutput() throws {
        let runs = try Self.compose(["--layout", "speaker", "--segment-seconds", "4", "--mp4", "--thumbnails", "5", "--preset", "ultrafast"],
                                    chunk: ["--chunk-seconds", "8", "--jobs", "2"])
        defer { runs.cleanup() }
        let fps = 30.0, boundaries = [8.0, 16.0, 24.0]

        try Self.expectSame(runs, boundaries: boundaries, fps: fps)
        let playlist = try Self.text(runs.whole.appendingPathComponent("hls/index.m3u8"))
        #expect(playlist.components(separatedBy: "#EXTINF:").count - 1 == 8)
        #expect(try Self.text(runs.whole.appendingPathComponent("plan.json")).contains("\"speakers\""))
        #expect(try Data(contentsOf: runs.chunked.appendingPathComponent("thumbnails.vtt")) == Data(contentsOf: runs.whole.appendingPathComponent("thumbnails.vtt")))
        let names = { (url: URL) in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
        #expect(try names(runs.chunked.appendingPathComponent("thumbnails")) == names(runs.whole.appendingPathComponent("thumbnails")))
        #expect(try Self.packets(runs.chunked.appendingPathComponent("hls/index.m3u8")).filter { $0.0 == 0 }.count == 900, "30 s at 30 fps")

        // The MP4: the same chapters and frames.
        let mp4 = { (url: URL) in try Self.packets(url.appendingPathComponent("composition.mp4")) }
        #expect(try mp4(runs.chunked).map(\.1) == mp4(runs.whole).map(\.1))
        let chapters = try Self.chapters(runs.whole.appendingPathComponent("composition.mp4"))
        #expect(chapters.contains("\"title\""), "the whole run's MP4 has chapters")
        #expect(try Self.chapters(runs.chunked.appendingPathComponent("composition.mp4")) == chapters)

        // report.json: CPU per chunk.
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: runs.chunked.appendingPathComponent("report.json"))) as? [String: Any])
        let chunking = try #require(report["chunking"] as? [String: Any])
        let chunks = try #require(chunking["chunks"] as? [[String: Any]])
        #expect(chunks.map { $0["fromSeconds"] as? Double } == [0, 8, 16, 24])
        #expect(chunks.map { $0["toSeconds"] as? Double } == [8, 16, 24, 30])
        #expect(chunks.allSatisfy { ($0["cpuSeconds"] as? Double ?? 0) > 0 })
        #expect(report["frames"] as? Int == 900)
    }

    /// A synthetic capture: boundaries every 2 s (segments of 1 s) on Ben's pin (2 s), inside Ben's
    /// paused stream (held, then his placeholder: 3 to 5.5 s) and inside Ana's muted camera (5 to 6.5 s).
    @Test func boundariesInLayoutChangesAndPausesChangeNothing() throws {
        // x264's default preset here: B-frames, so decoding times lie before presentation times.
        let runs = try Self.compose(["--segment-seconds", "1", "--pause-grace", "1.5"],
                                    chunk: ["--chunk-seconds", "2", "--jobs", "2"],
                                    scenario: ComposeEndToEndTests.scenario(pauseBen: 3_000...5_500))
        defer { runs.cleanup() }
        try Self.expectSame(runs, boundaries: [2, 4, 6])
        let video = try Self.packets(runs.chunked.appendingPathComponent("hls/index.m3u8")).filter { $0.0 == 0 }
        #expect(video.contains { $0.1 != $0.2 }, "B-frames: some packets decode before they show")
    }

    /// Media cut short (Ben's camera, every layer, and Ana's microphone at half their bytes): the same
    /// losses and lost media in report.json, a stretch across chunk boundaries told as one.
    @Test func lossesAcrossChunkBoundariesAreTheWholeRuns() throws {
        let runs = try Self.compose(["--segment-seconds", "1", "--preset", "ultrafast"], chunk: ["--chunk-seconds", "1", "--jobs", "2"],
                                    scenario: ComposeEndToEndTests.scenario()) { capture in
            let media = capture.appendingPathComponent("media")
            for name in try FileManager.default.contentsOfDirectory(atPath: media.path)
            where name.hasPrefix("TR_ben_cam") || name.hasPrefix("TR_ana_mic") {
                let url = media.appendingPathComponent(name)
                let data = try Data(contentsOf: url)
                try data.prefix(data.count / 2).write(to: url)
            }
        }
        defer { runs.cleanup() }
        let report = { (url: URL) throws -> [String: Any] in
            try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("report.json"))) as? [String: Any])
        }
        let whole = try report(runs.whole), chunked = try report(runs.chunked)
        let losses = try #require(whole["losses"] as? [[String: Any]])
        let video = losses.filter { $0["trackId"] as? String == "TR_ben_cam" }
        #expect(video.contains { ($0["toMs"] as? Int ?? 0) - ($0["fromMs"] as? Int ?? 0) > 1_000 }, "a loss longer than a chunk: \(losses)")
        #expect(losses.contains { $0["trackId"] as? String == "TR_ana_mic" }, "\(losses)")
        let json = { (value: Any?) throws -> Data in try JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys]) }
        #expect(try json(chunked["losses"]) == json(whole["losses"]))
        #expect(try json(chunked["lostMedia"]) == json(whole["lostMedia"]))
        #expect(try json(chunked["layerStandIns"]) == json(whole["layerStandIns"]))
    }

    /// A chunk longer than the session: one chunk, the whole run's output.
    @Test func aChunkLongerThanTheSessionIsTheWholeRun() throws {
        let runs = try Self.compose(["--preset", "ultrafast"], chunk: ["--chunk-seconds", "60", "--jobs", "3"])
        defer { runs.cleanup() }
        try Self.expectSame(runs, boundaries: [])
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: runs.chunked.appendingPathComponent("report.json"))) as? [String: Any])
        let chunks = try #require((report["chunking"] as? [String: Any])?["chunks"] as? [[String: Any]])
        #expect(chunks.count == 1)
    }

    /// A ladder: every rendition's playlist as the whole run's, each at its size, keyframes together.
    @Test func aLadderJoinsRenditionByRendition() throws {
        let runs = try Self.compose(["--renditions", "1280x720@1500k,640x360@500k@15", "--segment-seconds", "2"],
                                    chunk: ["--chunk-seconds", "12", "--jobs", "2"])
        defer { runs.cleanup() }
        for rendition in ["1280x720", "640x360", "audio"] {
            let path = "hls/\(rendition)/index.m3u8"
            #expect(try Self.text(runs.chunked.appendingPathComponent(path)) == Self.text(runs.whole.appendingPathComponent(path)), "\(path)")
            let whole = try Self.packets(runs.whole.appendingPathComponent(path))
            let chunked = try Self.packets(runs.chunked.appendingPathComponent(path))
            #expect(chunked.map(\.1) == whole.map(\.1) && chunked.map(\.2) == whole.map(\.2) && chunked.map(\.3) == whole.map(\.3), "\(path)")
        }
        for (rendition, size) in [("1280x720", (1280, 720)), ("640x360", (640, 360))] {
            let stream = try #require(Demuxer(url: runs.chunked.appendingPathComponent("hls/\(rendition)/index.m3u8")).firstStream(ofType: .video))
            #expect((stream.width, stream.height) == size)
        }
        // The master playlist: the same but for the bandwidths, measured from what each encode made.
        let master = { (url: URL) in
            try Self.text(url.appendingPathComponent("hls/index.m3u8")).replacingOccurrences(of: #"BANDWIDTH=\d+"#, with: "BANDWIDTH", options: .regularExpression)
        }
        #expect(try master(runs.chunked) == master(runs.whole))
    }

    /// From a bucket to a bucket: the objects a whole run publishes, the same where they come from the
    /// plan and the playlist; no chunk's file or work folder ever goes up.
    @Test func aChunkedRunPublishesToABucketAsAWholeRunDoes() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = ScratchDirectory("chunks").url
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try ObjectStorageCommandTests.capture(in: root, uploadedTo: moto, prefix: "panel")
        let options = ObjectStorageCommandTests.fast + ["--segment-seconds", "1"]
        let whole = try CommandLineTests.run(["compose", "s3://captures/panel", "--out", "s3://outputs/whole"] + options, environment: moto.environment())
        #expect(whole.status == 0, "\(whole.stderr)")
        let mark = moto.logMark()
        let chunked = try CommandLineTests.run(["compose", "s3://captures/panel", "--out", "s3://outputs/chunked", "--chunk-seconds", "1", "--jobs", "2"] + options,
                                               environment: moto.environment())
        #expect(chunked.status == 0, "\(chunked.stderr)")
        let a = try moto.objects(bucket: "outputs", prefix: "whole"), b = try moto.objects(bucket: "outputs", prefix: "chunked")
        #expect(Set(b.keys) == Set(a.keys))
        for name in ["timeline.json", "billing.json", "plan.json", "hls/index.m3u8"] {
            #expect(a[name] != nil && b[name] == a[name], "\(name)")
        }
        let puts = moto.requests(since: mark).filter { $0.method == "PUT" || $0.method == "POST" }.map(\.path)
        #expect(!puts.isEmpty && puts.allSatisfy { !$0.contains(".chunks") && !$0.contains(".nut") && !$0.contains("chunk-") }, "\(puts)")
    }

    /// A chunk that is not a whole number of segments is a usage error, before anything is written.
    @Test func chunksThatAreNotWholeSegmentsExit64() throws {
        let root = ScratchDirectory("chunks").url
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        for (options, named) in [(["--chunk-seconds", "6"], "--chunk-seconds"), (["--chunk-seconds", "2", "--segment-seconds", "4"], "--chunk-seconds"),
                                 (["--chunk-seconds", "3", "--segment-seconds", "2"], "--chunk-seconds"), (["--jobs", "2"], "--jobs"),
                                 (["--chunk-seconds", "8", "--jobs", "0"], "--jobs")] {
            let result = try CommandLineTests.run(["compose", Self.panel.path, "--out", out.path] + options)
            #expect(result.status == 64, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(named), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    /// SIGTERM while the chunks encode: exit 143, nothing left beside the output, no chunk process left.
    @Test func aStoppedChunkedRunLeavesNothing() throws {
        let root = ScratchDirectory("chunks").url
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["compose", Self.panel.path, "--out", out.path, "--chunk-seconds", "4", "--jobs", "2", "--preset", "medium"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Until a chunk is under way.
        let deadline = Date().addingTimeInterval(60)
        while Self.chunkProcesses(under: root).isEmpty, Date() < deadline, process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!Self.chunkProcesses(under: root).isEmpty, "a chunk process ran")
        process.terminate()
        // Bounded: a run that does not stop fails the test instead of hanging the suite.
        let stopBy = Date().addingTimeInterval(30)
        while process.isRunning, Date() < stopBy { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            Issue.record("compose did not stop within 30 s of SIGTERM")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        let gone = Date().addingTimeInterval(5)
        while !Self.chunkProcesses(under: root).isEmpty, Date() < gone { Thread.sleep(forTimeInterval: 0.1) }
        #expect(Self.chunkProcesses(under: root).isEmpty, "no chunk outlives the run")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty, "no output, no staging folder")
    }

    /// Processes whose command line names a path under `root`.
    static func chunkProcesses(under root: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let line = String(decoding: data, as: UTF8.self)
            return line.contains("compose-chunk") && line.contains(root.path)
        }
    }
}
