import Foundation
import Testing
import StageMixCapture
import StageMixMedia
import StageMixTestSupport

/// `stagemix import agora` on a recording made by the ffmpeg CLI in Agora's names and shapes
/// (``AgoraRecordingFixture``), then `stagemix compose`: who is seen and heard when, in sync.
@Suite("Agora import", .serialized)
struct AgoraImportTests {
    typealias CLI = CommandLineTests
    typealias Fixture = AgoraRecordingFixture

    /// Share of a frame's sampled points close to `colour`, and where they are on average (0...1).
    static func look(for colour: RGBColor, in frame: VideoFrame) -> (share: Double, x: Double, y: Double) {
        var hits = 0, all = 0, sx = 0.0, sy = 0.0
        for y in stride(from: 2, to: frame.height - 2, by: 6) {
            for x in stride(from: 2, to: frame.width - 2, by: 6) {
                all += 1
                if frame.pixelRGB(x: x, y: y)?.isClose(to: colour, tolerance: 40) == true {
                    hits += 1
                    sx += Double(x) / Double(frame.width)
                    sy += Double(y) / Double(frame.height)
                }
            }
        }
        return (Double(hits) / Double(max(all, 1)), hits > 0 ? sx / Double(hits) : 0, hits > 0 ? sy / Double(hits) : 0)
    }

    static func compose(_ capture: URL, in root: URL) throws -> (output: ComposedOutput, out: URL) {
        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast", "--resolution", "480x270", "--fps", "15"])
        #expect(composed.status == 0, "\(composed.stderr)")
        return (try ComposedOutput(hls: out.appendingPathComponent("hls")), out)
    }

    @Test func aRecordingComposesWithEveryoneWhereAndWhenAgoraSays() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "agora", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("warning"), "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.sessionId == Fixture.sid)
        #expect(read.participants.map { "\($0.id)=\($0.name)" } == ["1001=1001", "1002=1002"])
        // uid 1001's three slices are one track a kind; uid 1002's camera two, before and after its gap.
        #expect(read.tracks.map(\.id).sorted() == ["1001-camera", "1001-microphone", "1002-camera", "1002-camera#2", "1002-microphone", "1002-microphone#2"])
        #expect(read.track("1002-camera")?.startOffsetMs == 1_000 && read.track("1002-camera#2")?.startOffsetMs == 4_000)
        #expect(read.track("1002-camera#2")?.layers.first?.file.hasSuffix(".mp4") == true, "turned: remuxed with a display matrix")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains("sliceStartTime of \(Fixture.name("1001", "audio.m3u8")) is 0 ms"), "\(note)")
        #expect(note.contains("sliceStartTime of \(Fixture.name("1002", "video.m3u8")) is 0 ms"), "\(note)")

        let (output, _) = try Self.compose(capture, in: root)
        func seen(_ colour: RGBColor, at t: Double) -> (share: Double, x: Double, y: Double) {
            output.frame(at: t).map { Self.look(for: colour, in: $0) } ?? (0, 0, 0)
        }
        func heard(_ hz: Double, at t: Double) -> Double { tonePower(hz, in: output.audio(from: t - 0.15, to: t + 0.15)) }
        let loud = [440.0, 660, 880].map { hz in stride(from: 0.3, to: 5.8, by: 0.25).map { heard(hz, at: $0) }.max() ?? 0 }
        // (time, 1001's colour, 1001's tone, 1002 there?, 1002 turned?)
        let expectations: [(Double, RGBColor, Double, Bool, Bool)] = [
            (0.5, Fixture.red, 440, false, false), (1.6, Fixture.red, 440, true, false),
            (2.15, Fixture.red, 440, true, false),  // just after a cut, mid-GOP: decoded on
            (2.6, Fixture.red, 440, true, false), (3.4, Fixture.green, 660, false, false),
            (3.8, Fixture.green, 660, false, false), (4.15, Fixture.green, 660, true, true), (5.4, Fixture.green, 660, true, true),
        ]
        for (t, colour, tone, ben, turned) in expectations {
            #expect(seen(colour, at: t).share > 0.05, "1001 not seen at \(t) s")
            #expect(heard(tone, at: t) > loud[[440, 660].firstIndex(of: tone)!] * 0.05, "1001 not heard at \(t) s")
            let blue = seen(Fixture.blue, at: t), yellow = seen(Fixture.yellow, at: t)
            let bens = heard(880, at: t)
            if ben {
                #expect(blue.share > 0.01 && yellow.share > 0.01, "1002 not seen at \(t) s")
                #expect(bens > loud[2] * 0.05, "1002 not heard at \(t) s")
                if turned {
                    #expect(yellow.x < blue.x - 0.03 && abs(yellow.y - blue.y) < 0.05, "1002 not turned at \(t) s: \(yellow), \(blue)")
                } else {
                    #expect(blue.y < yellow.y - 0.03 && abs(yellow.x - blue.x) < 0.05, "1002 turned at \(t) s: \(yellow), \(blue)")
                }
            } else {
                #expect(blue.share < 0.002 && yellow.share < 0.002, "1002 seen at \(t) s")
                #expect(bens < loud[2] * 0.01, "1002 heard at \(t) s")
            }
        }
        // Sync: 1001's picture turns green as its tone turns 660 Hz, both 3 s in: to one frame plus 20 ms.
        let frames = output.frames.filter { $0.time > 2.5 && $0.time < 3.6 }
        let greenAt = try #require(frames.first { Self.look(for: Fixture.green, in: $0.frame).share > 0.05 }?.time)
        let onset = try #require(stride(from: 2.5, to: 3.6, by: 0.005).first { heard(660, at: $0 + 0.15) > loud[1] * 0.1 && tonePower(660, in: output.audio(from: $0, to: $0 + 0.02)) > loud[1] * 0.02 })
        #expect(abs(greenAt - onset) <= 1.0 / 15 + 0.020, "picture \(greenAt) s, tone \(onset) s")
        #expect(abs(greenAt - 3.0) <= 1.0 / 15 + 0.020, "green at \(greenAt) s")
    }

    /// A missing slice and a playlist Agora marks unplayable: warnings and lost media, the rest composed.
    @Test func aMissingSliceAndAnUnplayablePlaylistAreLostMediaNotErrors() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        let slices = try FileManager.default.contentsOfDirectory(atPath: fixture.media.path).filter { $0.contains("_1001__uid_e_video_") }.sorted()
        try FileManager.default.removeItem(at: fixture.media.appendingPathComponent(slices[1]))
        try fixture.uploaded(playable: false).write(to: fixture.directory.appendingPathComponent("callbacks/uploaded.json"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "agora", fixture.directory.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains(slices[1]) && imported.stderr.contains("no such file"), "\(imported.stderr)")
        #expect(imported.stderr.contains("isPlayable false"), "\(imported.stderr)")
        let note = try String(contentsOf: capture.appendingPathComponent("import.json"), encoding: .utf8)
        #expect(note.contains(slices[1]))
        let (output, out) = try Self.compose(capture, in: root)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let lost = try #require(report?["lostMedia"] as? [String: String])
        #expect(lost.keys.contains { $0.hasSuffix(slices[1]) } && lost.values.contains { $0.contains("\"1002-microphone\"") }, "\(lost)")
        #expect(Self.look(for: Fixture.red, in: try #require(output.frame(at: 1.0))).share > 0.05, "the slice before the lost one is shown")
        #expect(tonePower(880, in: output.audio(from: 1.2, to: 2.8)) < tonePower(440, in: output.audio(from: 1.2, to: 2.8)) * 0.01)
    }

    /// A member of the wrong type in Agora's JSON refuses the import, naming the file and the member; nothing is written.
    @Test func aMalformedDocumentExits65NamingFileAndMember() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        try fixture.uploaded(isPlayableValue: "\"yes\"").write(to: fixture.directory.appendingPathComponent("callbacks/uploaded.json"), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let refused = try CLI.run(["import", "agora", fixture.directory.path, "--out", capture.path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("callbacks/uploaded.json") && refused.stderr.contains("$.payload.details.fileList[1].isPlayable"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: capture.path))
    }

    /// `mode=raw`: one playlist per uid with audio and video in each slice; a DASH manifest is refused by name.
    @Test func rawModeSlicesCarryBothKindsAndDASHIsReadByItsSlices() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("raw"), scratch = root.appendingPathComponent("scratch")
        for folder in [dir, scratch] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0xC83020:s=320x180:r=15:d=4", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
                            "-c:v", "libx264", "-preset", "ultrafast", "-g", "600", "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p",
                            "-c:a", "aac", "-ac", "1", "-f", "segment", "-segment_format", "mpegts", "-segment_times", "2",
                            "-break_non_keyframes", "1", "-reset_timestamps", "0", scratch.appendingPathComponent("s%d.ts").path])
        let starts = try (0..<2).map { try Fixture.firstSeconds(scratch.appendingPathComponent("s\($0).ts"), .video) }
        var names: [String] = []
        for i in 0..<2 {
            let name = Fixture.name("7", "\(Fixture.utc(Fixture.zero + Int64(((starts[i] - starts[0]) * 1000).rounded())))_av.ts")
            try FileManager.default.moveItem(at: scratch.appendingPathComponent("s\(i).ts"), to: dir.appendingPathComponent(name))
            names.append(name)
        }
        try Fixture.playlist(names, type: "audio_and_video", start: Fixture.zero).write(to: dir.appendingPathComponent(Fixture.name("7", "av.m3u8")), atomically: true, encoding: .utf8)
        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "agora", dir.path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try CaptureFolder(capture).capture()
        #expect(read.tracks.map(\.id).sorted() == ["7-camera", "7-microphone"])
        let (output, _) = try Self.compose(capture, in: root)
        for t in [0.5, 2.2, 3.5] {
            #expect(Self.look(for: Fixture.red, in: try #require(output.frame(at: t))).share > 0.3, "7 not seen at \(t) s")
            #expect(tonePower(440, in: output.audio(from: t - 0.15, to: t + 0.15)) > 1e-4, "7 not heard at \(t) s")
        }

        // VP8 from a browser: a DASH manifest beside WebM slices, one kind each, named with their UTC starts.
        let dash = root.appendingPathComponent("dash")
        try FileManager.default.createDirectory(at: dash, withIntermediateDirectories: true)
        try "<MPD/>".write(to: dash.appendingPathComponent(Fixture.name("8", "vp8.mpd")), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", "agora", dash.path, "--out", root.appendingPathComponent("nothing").path])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains(Fixture.name("8", "vp8.mpd")) && refused.stderr.contains("WebM slices"), "\(refused.stderr)")
        try FFmpegTool.run(["-f", "lavfi", "-i", "color=c=0x2040C0:s=320x180:r=15:d=3", "-c:v", "libvpx", "-b:v", "300k", "-g", "15",
                            dash.appendingPathComponent(Fixture.name("8", "video_\(Fixture.utc(Fixture.zero + 500)).webm")).path])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=3", "-c:a", "libopus", "-ac", "1",
                            dash.appendingPathComponent(Fixture.name("8", "audio_\(Fixture.utc(Fixture.zero + 500)).webm")).path])
        let dashCapture = root.appendingPathComponent("dash-capture")
        let fromDASH = try CLI.run(["import", "agora", dash.path, "--out", dashCapture.path])
        #expect(fromDASH.status == 0, "\(fromDASH.stderr)")
        #expect(try CaptureFolder(dashCapture).capture().tracks.map(\.id).sorted() == ["8-camera", "8-microphone"])
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dash-out"), withIntermediateDirectories: true)
        let (dashOutput, _) = try Self.compose(dashCapture, in: root.appendingPathComponent("dash-out"))
        #expect(Self.look(for: Fixture.blue, in: try #require(dashOutput.frame(at: 1.5))).share > 0.3)
        #expect(tonePower(660, in: dashOutput.audio(from: 1.3, to: 1.7)) > 1e-4)
    }

    /// DIR may be the bucket prefix Agora uploaded to: it is read into a scratch folder beside --out and
    /// imported as the same folder downloaded would be; a key that would leave the folder is not written,
    /// and the scratch folder is gone afterwards. An output in a bucket works the same way.
    @Test func aRecordingInABucketImportsAsTheDownloadedFolderDoes() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = try Fixture(in: root)
        // One path segment: moto mis-signs a listing whose prefix holds a `/` (AWS, MinIO and the others do not).
        try moto.upload(fixture.directory, bucket: "recordings", prefix: "agora-\(Fixture.sid)")
        try moto.boto3(#"s3.put_object(Bucket="recordings", Key="agora-\#(Fixture.sid)/a//../../escape.json", Body=b"{}")"#)
        let local = root.appendingPathComponent("local"), fromBucket = root.appendingPathComponent("out/from-bucket")
        #expect(try CLI.run(["import", "agora", fixture.directory.path, "--out", local.path]).status == 0)
        let imported = try CLI.run(["import", "agora", "s3://recordings/agora-\(Fixture.sid)", "--out", fromBucket.path], environment: moto.environment())
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("escape.json: a key that would leave the folder"), "\(imported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escape.json").path))
        #expect(try String(contentsOf: fromBucket.appendingPathComponent("session.json"), encoding: .utf8)
                == String(contentsOf: local.appendingPathComponent("session.json"), encoding: .utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("out").path) == ["from-bucket"])
        let media = try FileManager.default.contentsOfDirectory(atPath: fromBucket.appendingPathComponent("media").path).sorted()
        #expect(media == (try FileManager.default.contentsOfDirectory(atPath: local.appendingPathComponent("media").path).sorted()))

        // Into a bucket too, and a prefix holding nothing of Agora's is exit 65 naming it.
        let toBucket = try CLI.run(["import", "agora", "s3://recordings/agora-\(Fixture.sid)", "--out", "s3://recordings/captured-agora"],
                                   environment: moto.environment())
        #expect(toBucket.status == 0, "\(toBucket.stderr)\n\(toBucket.stdout)")
        #expect(try moto.objects(bucket: "recordings", prefix: "captured-agora").keys.contains("session.json"))
        let empty = try CLI.run(["import", "agora", "s3://recordings/nothing-here", "--out", root.appendingPathComponent("none").path],
                                environment: moto.environment())
        #expect(empty.status == 65, "\(empty.stderr)")
    }
}

