import Foundation
import Testing
import StageMixMedia
import StageMixTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A room a real Janus recorded from real browsers (issue 33): `scripts/janus-record` runs Debian's
/// Janus in one network namespace and three headless Chromium publishers in another (a picture and a
/// tone each; one unpublishes and publishes again, one leaves early), then `stagemix import janus`
/// and `stagemix compose` make the room's video. What each page did and when comes from the harness's
/// own clock (`scenario.json`), not from StageMix.
@Suite("Janus end to end: real browsers through a real Janus", .serialized,
       .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/janus")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")))
struct JanusEndToEndTests {
    typealias CLI = CommandLineTests

    struct Publisher {
        var display: String
        var colour: RGBColor
        var tone: Double
        /// Publishing, real-time µs: from WebRTC up to the unpublish or the leave.
        var windows: [(start: Int64, end: Int64)]
    }

    static func publishers(_ scenario: URL) throws -> [Publisher] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scenario)) as? [String: Any])
        return try (json["publishers"] as? [[String: Any]] ?? []).map { p in
            let observed = p["observed_us"] as? [String: Any] ?? [:]
            func times(_ key: String) -> [Int64] {
                if let many = observed[key] as? [NSNumber] { return many.map(\.int64Value) }
                return (observed[key] as? NSNumber).map { [$0.int64Value] } ?? []
            }
            let ups = times("webrtc_up"), downs = times("unpublished")
            let leave = times("leave_sent").first ?? times("session_destroyed").first ?? .max
            let windows = ups.enumerated().map { (i, up) in (up, i < downs.count ? downs[i] : leave) }
            return Publisher(display: p["display"] as? String ?? "", colour: try RGBColor(hex: p["colour_hex"] as? String ?? "#000000"),
                             tone: (p["tone_hz"] as? NSNumber)?.doubleValue ?? 0, windows: windows)
        }
    }

    /// Share of a frame's sampled points close to `colour` (a grid every 16 pixels).
    static func share(of colour: RGBColor, in frame: VideoFrame, tolerance: Int = 60) -> Double {
        var hits = 0, all = 0
        for y in stride(from: 4, to: frame.height - 4, by: 16) {
            for x in stride(from: 4, to: frame.width - 4, by: 16) {
                all += 1
                if frame.pixelRGB(x: x, y: y)?.isClose(to: colour, tolerance: tolerance) == true { hits += 1 }
            }
        }
        return Double(hits) / Double(max(all, 1))
    }

    /// Each video codec the VideoRoom records (VP8 and VP9 into WebM, H.264 into MPEG-TS), with Opus.
    @Test(arguments: ["vp8", "vp9", "h264"])
    func aRoomRecordedFromRealBrowsersComposesWithEveryoneInPlaceHeardAndInSync(codec: String) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let recording = root.appendingPathComponent("janus")
        let record = try Self.record(into: recording, codec: codec, log: root.appendingPathComponent("janus-record.log"))
        #expect(record.status == 0, "\(record.log)")
        guard record.status == 0 else { return }

        let capture = root.appendingPathComponent("capture")
        let imported = try CLI.run(["import", "janus", recording.appendingPathComponent("recordings").path,
                                    "--events", recording.appendingPathComponent("events.jsonl").path, "--out", capture.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--resolution", "640x360", "--fps", "15", "--preset", "ultrafast"])
        #expect(composed.status == 0, "\(composed.stderr)")
        guard imported.status == 0, composed.status == 0 else { return }

        try Self.checkRoom(capture: capture, hls: out.appendingPathComponent("hls"), recording: recording, root: root)

        // The same recordings as a worse network would have left them (the kernel here has no netem):
        // one audio packet in 25 lost, neighbours swapped, some packets twice. The room composes the same,
        // in sync with what the browser sent (read from the undamaged files), and the losses are reported.
        let damaged = root.appendingPathComponent("damaged")
        let done = try JanusRecordingDamage(dropAudioEvery: 25, swapEvery: 17, duplicateEvery: 29)
            .copyFolder(recording.appendingPathComponent("recordings"), to: damaged.appendingPathComponent("recordings"))
        #expect(done.dropped > 50 && done.swapped > 100 && done.duplicated > 50, "\(done)")
        let damagedCapture = root.appendingPathComponent("damaged-capture"), damagedOut = root.appendingPathComponent("damaged-out")
        let reimported = try CLI.run(["import", "janus", damaged.appendingPathComponent("recordings").path,
                                      "--events", recording.appendingPathComponent("events.jsonl").path, "--out", damagedCapture.path])
        #expect(reimported.status == 0, "\(reimported.stderr)")
        #expect(reimported.stderr.contains("missing audio packets"), "\(reimported.stderr)")
        let recomposed = try CLI.run(["compose", damagedCapture.path, "--out", damagedOut.path, "--resolution", "640x360", "--fps", "15",
                                      "--preset", "ultrafast"])
        #expect(recomposed.status == 0, "\(recomposed.stderr)")
        guard reimported.status == 0, recomposed.status == 0 else { return }
        try Self.checkRoom(capture: damagedCapture, hls: damagedOut.appendingPathComponent("hls"), recording: recording, root: root)
    }

    /// Janus's event handler posts to `stagemix serve` itself (run by the harness in the browsers'
    /// namespace, with Janus's `backend_user`/`backend_pwd` as one of its API keys): when the room ends
    /// (its last publisher gone for `--janus-idle-seconds`), serve imports the recordings Janus wrote
    /// and composes them, as `--janus-composition` says, with nobody running a command.
    @Test func aRoomThatEndsInJanusBecomesACompositionWithoutACommand() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let recording = root.appendingPathComponent("janus"), service = root.appendingPathComponent("service")
        try FileManager.default.createDirectory(at: service.appendingPathComponent("captures"), withIntermediateDirectories: true)
        let secret = "janus-backend-secret-0123456789abcdefghij"
        try #"{"keys": {"janus-prod": "\#(secret)"}}"#.write(to: service.appendingPathComponent("keys.json"), atomically: true, encoding: .utf8)
        try #"{"layout": "grid", "options": {"resolution": "640x360", "fps": 15, "preset": "ultrafast"}}"#
            .write(to: service.appendingPathComponent("janus-composition.json"), atomically: true, encoding: .utf8)
        let compositions = service.appendingPathComponent("compositions")
        let serve = [CLI.executable.path, "serve", "--listen", "10.233.0.2:8099", "--queue", "sqlite:\(service.path)/queue.sqlite",
                     "--keys", "\(service.path)/keys.json", "--capture-root", "\(service.path)/captures", "--output-root", compositions.path,
                     "--janus-recordings", recording.appendingPathComponent("recordings").path, "--janus-idle-seconds", "3",
                     "--janus-composition", "\(service.path)/janus-composition.json"].joined(separator: " ")
        let record = try Self.record(into: recording, log: root.appendingPathComponent("janus-record.log"), extra: [
            "--serve", serve, "--serve-port", "8099", "--serve-until", "\(compositions.path)/*/.stagemix-output",
            "--backend-user", "janus-prod", "--backend-pwd", secret,
        ])
        let serveLog = (try? String(contentsOf: recording.appendingPathComponent("logs/serve.log"), encoding: .utf8)) ?? ""
        #expect(record.status == 0, "\(record.log)\n--- serve.log ---\n\(serveLog.suffix(4000))")
        guard record.status == 0 else { return }

        // One room, one capture, one composition: the room was composed once, as the settings said.
        let published = try FileManager.default.contentsOfDirectory(atPath: compositions.path).filter { !$0.hasPrefix(".") }
        #expect(published.count == 1, "\(published)")
        let captures = compositions.appendingPathComponent(".stagemix-inputs/janus")
        let imported = try FileManager.default.contentsOfDirectory(atPath: captures.path).filter { !$0.hasPrefix(".") }
        #expect(imported.count == 1 && imported.first?.hasPrefix("1234-") == true, "\(imported)")
        #expect(serveLog.contains("Janus room ended: composed"), "\(serveLog.suffix(4000))")
        let (id, capture) = (try #require(published.first), captures.appendingPathComponent(try #require(imported.first)))
        let note = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: capture.appendingPathComponent("import.json"))) as? [String: Any])
        #expect(note["platform"] as? String == "janus")
        let hls = compositions.appendingPathComponent(id).appendingPathComponent("hls")
        let playlist = try String(contentsOf: hls.appendingPathComponent("index.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-ENDLIST"))
        try Self.checkRoom(capture: capture, hls: hls, recording: recording, root: root, size: (640, 360))
    }

    /// Runs `scripts/janus-record` (24 s) into `folder`: its exit status and its log.
    static func record(into folder: URL, codec: String = "vp8", log: URL, extra: [String] = []) throws -> (status: Int32, log: String) {
        let record = Process()
        record.executableURL = Repository.root.appendingPathComponent("scripts/janus-record")
        record.arguments = [folder.path, "--codec", codec, "--seconds", "24"] + extra
        FileManager.default.createFile(atPath: log.path, contents: nil)
        record.standardError = try FileHandle(forWritingTo: log)
        record.standardOutput = FileHandle.nullDevice
        try record.run()
        record.waitUntilExit()
        return (record.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// The composition of the room `recording` holds (its capture and HLS): each publisher seen and heard
    /// exactly while publishing, and the first one's flash-to-tone offset as the browser sent it.
    static func checkRoom(capture: URL, hls: URL, recording: URL, root: URL, size: (Int, Int)? = nil) throws {
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: capture.appendingPathComponent("session.json"))) as? [String: Any])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let zero = Int64((try #require(formatter.date(from: manifest["startedAt"] as? String ?? "")).timeIntervalSince1970 * 1e6).rounded())
        let output = try ComposedOutput(hls: hls)
        if let size, let frame = output.frames.first?.frame { #expect((frame.width, frame.height) == size) }
        let publishers = try Self.publishers(recording.appendingPathComponent("scenario.json"))
        #expect(publishers.count == 3)
        func seconds(_ us: Int64) -> Double { Double(us - zero) / 1e6 }
        let end = output.frames.last?.time ?? 0

        // Pictures and tones: each publisher seen and heard exactly while publishing, give or take the
        // second WebRTC takes to show a first frame (a keyframe after the PLI) and the half second around the end.
        // A real browser on a loaded machine may leave a moment of its tone unsent (Chromium's fake capture
        // starved of CPU; nothing reaches Janus): one point in ten inside a window may be quiet, never one outside.
        var samples = 0
        for publisher in publishers {
            var quiet: [Double] = [], insidePoints = 0
            let loudest = stride(from: 0.5, to: end, by: 0.5).map { tonePower(publisher.tone, in: output.audio(from: $0 - 0.25, to: $0 + 0.25)) }.max() ?? 0
            for t in stride(from: 0.5, to: end - 0.5, by: 0.5) {
                let inside = publisher.windows.contains { t >= seconds($0.start) + 1.5 && t <= seconds($0.end) - 0.5 }
                let outside = !publisher.windows.contains { t >= seconds($0.start) - 0.5 && t <= seconds($0.end) + 0.7 }
                guard inside || outside, let frame = output.frame(at: t) else { continue }
                samples += 1
                // A publisher's picture flashes white one frame in 60 (the sync mark): the frame after counts too.
                let seen = max(Self.share(of: publisher.colour, in: frame), output.frame(at: t + 0.14).map { Self.share(of: publisher.colour, in: $0) } ?? 0)
                // The tone pauses 0.2 s in every 4 s loop (the sync mark): of three 0.2 s windows around t one holds
                // it unbroken (one window across the pause would sum its two sides out of phase).
                let heard = [-0.2, 0.0, 0.2].map { tonePower(publisher.tone, in: output.audio(from: t + $0 - 0.1, to: t + $0 + 0.1)) }.max() ?? 0
                if inside {
                    #expect(seen > 0.03, "\(publisher.display) not seen at \(t) s (\(seen))")
                    insidePoints += 1
                    if heard <= loudest * 0.01 { quiet.append(t) }
                } else {
                    #expect(seen < 0.005, "\(publisher.display) seen at \(t) s while not publishing (\(seen))")
                    #expect(heard < loudest * 0.002, "\(publisher.display) heard at \(t) s while not publishing")
                }
            }
            #expect(quiet.count <= max(1, insidePoints / 10), "\(publisher.display) not heard at \(quiet) s of \(insidePoints) points")
        }
        #expect(samples > 60)

        // Sync: each loop of the first publisher's picture flashes white as its tone starts (the harness's marks).
        // The flash-to-tone offset of the composition is the one in what the browser sent, as janus-pp-rec (a
        // reference, in this test only) rebuilds it from the same recordings, to one frame plus 20 ms.
        let first = publishers[0]
        let white = RGBColor(r: 255, g: 255, b: 255)
        let window = (seconds(first.windows[0].start) + 1.0, seconds(first.windows[0].end) - 0.5)
        let frames = output.frames.filter { $0.time > window.0 && $0.time < window.1 }
        let flashes = frames.indices.dropFirst(2).filter { i in
            let before = Self.share(of: first.colour, in: frames[i - 2].frame), now = Self.share(of: first.colour, in: frames[i].frame)
            return before > 0.03 && now < before * 0.3 && Self.share(of: white, in: frames[i].frame, tolerance: 40) > before * 0.5
        }.map { frames[$0].time }
        let onsets = Self.toneOnsets(first.tone, in: output.audio, rate: output.audioSampleRate)
        let flash = try #require(flashes.first, "no flash of \(first.display) in \(window)")
        let onset = try #require(onsets.min { abs($0 - flash) < abs($1 - flash) })
        let reference = try Self.referenceOffset(recording.appendingPathComponent("recordings"), publisherNear: first.windows[0].start,
                                                 flashAt: Int64(flash * 1e6) + zero, in: root)
        #expect(abs((flash - onset) - reference) <= 1.0 / 15 + 0.020, "flash - tone: composed \(flash - onset) s, sent \(reference) s")
    }

    /// Instants where `frequency` goes from silence to sound in a mix (10 ms windows, Goertzel).
    static func toneOnsets(_ frequency: Double, in audio: [Float], rate: Int) -> [Double] {
        let window = rate / 100
        let levels = stride(from: 0, to: audio.count - window, by: window).map { tonePower(frequency, in: audio[$0..<($0 + window)], sampleRate: rate) }
        let peak = levels.max() ?? 0
        return levels.indices.dropFirst(3).filter { levels[$0] > peak * 0.1 && levels[$0 - 3] < peak * 0.01 }
            .reduce(into: [Int]()) { kept, index in if kept.last.map({ index - $0 > 10 }) ?? true { kept.append(index) } }
            .map { Double($0 * window) / Double(rate) }
    }

    /// Instants where the audio goes from silence to sound (5 ms windows).
    static func onsets(_ audio: [Float], rate: Int) -> [Double] {
        let window = rate / 200
        var levels: [Float] = []
        var i = 0
        while i + window <= audio.count {
            levels.append(audio[i..<(i + window)].map(abs).reduce(0, +) / Float(window))
            i += window
        }
        let peak = levels.max() ?? 0
        return levels.indices.dropFirst(4).filter { levels[$0] > peak * 0.3 && levels[$0 - 4] < peak * 0.05 }
            .reduce(into: [Int]()) { kept, index in if kept.last.map({ index - $0 > 20 }) ?? true { kept.append(index) } }
            .map { Double($0 * window) / Double(rate) }
    }

    /// The flash-to-tone offset of the recordings made first after `start` (real-time µs), rebuilt by
    /// janus-pp-rec and aligned by their headers' `u`: the flash nearest `flashAt` and the tone onset nearest it.
    static func referenceOffset(_ recordings: URL, publisherNear start: Int64, flashAt: Int64, in root: URL) throws -> Double {
        let names = try FileManager.default.contentsOfDirectory(atPath: recordings.path).filter { $0.hasSuffix(".mjr") }
        func header(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: recordings.appendingPathComponent(name)).prefix(1024)
            let length = Int(data[data.startIndex + 8]) << 8 | Int(data[data.startIndex + 9])
            return try #require(try JSONSerialization.jsonObject(with: data.dropFirst(10).prefix(length)) as? [String: Any])
        }
        func made(_ name: String) throws -> Int64 { (try header(name)["s"] as? NSNumber)?.int64Value ?? 0 }
        let candidates = try names.filter { try made($0) < start }.sorted { try made($0) > made($1) }
        let audio = try #require(candidates.first { $0.contains("-audio-") }), video = try #require(candidates.first { $0.contains("-video-") })
        let uA = (try header(audio)["u"] as? NSNumber)?.int64Value ?? 0, uV = (try header(video)["u"] as? NSNumber)?.int64Value ?? 0
        // janus-pp-rec writes H.264 into MP4, VP8 and VP9 into WebM.
        let container = (try header(video)["c"] as? String) == "h264" ? "mp4" : "webm"
        let opus = root.appendingPathComponent("reference.opus"), webm = root.appendingPathComponent("reference.\(container)")
        for (source, target) in [(audio, opus), (video, webm)] {
            let convert = Process()
            convert.executableURL = URL(fileURLWithPath: "/usr/bin/janus-pp-rec")
            convert.arguments = [recordings.appendingPathComponent(source).path, target.path]
            convert.standardOutput = FileHandle.nullDevice
            convert.standardError = FileHandle.nullDevice
            try convert.run()
            convert.waitUntilExit()
        }
        let pictures = try ComposedOutput.decodeVideo(webm, skippingDamage: true)
        let flashes = pictures.filter { share(of: RGBColor(r: 255, g: 255, b: 255), in: $0.frame, tolerance: 40) > 0.5 }.map { Int64($0.time * 1e6) + uV }
        let flash = try #require(flashes.min { abs($0 - flashAt) < abs($1 - flashAt) })
        let sound = try ComposedOutput.decodeAudio(opus)
        let tones = onsets(sound.samples, rate: sound.rate).map { Int64(($0 + sound.start) * 1e6) + uA }
        let onset = try #require(tones.min { abs($0 - flash) < abs($1 - flash) })
        return Double(flash - onset) / 1e6
    }
}
