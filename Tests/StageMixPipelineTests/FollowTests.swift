import Foundation
import Testing
import StageMixTestSupport

/// `compose --follow`: a capture composed while `stagemix replay` records it. Chunks are composed
/// and joined while the session goes on, the output is published soon after `session.ended`, and it
/// is the output a whole run writes (the same video packets, playlists, pictures, plan, timeline and
/// billing, byte for byte) but for the loudness, set from what had been heard (its audio has the
/// whole run's every packet time, and lands on target); a recorder that stops and a recorder that
/// breaks the contract are refused, and one whose media still grow has not stopped.
@Suite("compose --follow", .serialized)
struct FollowTests {
    typealias CLI = CommandLineTests
    static let encoding = ["--chunk-seconds", "4", "--resolution", "640x360", "--fps", "15", "--preset", "ultrafast"]

    static func start(_ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every file under a folder, relative path to its bytes.
    static func files(_ folder: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? FileManager.DirectoryEnumerator() {
            if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath {
                out[String(url.standardizedFileURL.path.dropFirst(base.count))] = data
            }
        }
        return out
    }

    /// What `ffmpeg ARGUMENTS` writes to its standard output.
    static func ffmpeg(_ arguments: [String], tool: String = "ffmpeg") throws -> String {
        String(decoding: try ffmpegData(arguments, tool: tool), as: UTF8.self)
    }

    static func ffmpegData(_ arguments: [String], tool: String = "ffmpeg") throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = ["-v", "error"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The MD5 of an output's video packets, and its audio packets' times.
    static func streams(_ output: URL) throws -> (video: String, audioTimes: String, audioBytes: Int) {
        let playlist = output.appendingPathComponent("hls/index.m3u8").path
        let video = try ffmpeg(["-i", playlist, "-map", "0:v", "-c", "copy", "-f", "md5", "-"])
        let times = try ffmpeg(["-select_streams", "a", "-show_entries", "packet=pts,duration", "-of", "csv", playlist], tool: "ffprobe")
        let pcm = try ffmpegData(["-i", playlist, "-map", "0:a", "-f", "s16le", "-"])
        return (video, times, pcm.count)
    }

    /// The grid, the speaker layout (which hears as the session is recorded), and a Twilio layout whose
    /// grid is sized by the most cameras ever on at once (a screen share comes later): that one's first
    /// chunks were made for a smaller grid, so the join starts over at the end, and its output is still
    /// the whole run's.
    @Test(arguments: [("panel", nil), ("panel", "speaker"), ("screenshare", "twilio")])
    func aSessionComposedWhileRecordedIsTheWholeRunsOutput(sample: String, layout: String?) throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = root.appendingPathComponent("live"), followed = root.appendingPathComponent("followed")
        var layout = layout
        if layout == "twilio" {
            let file = root.appendingPathComponent("twilio-layout.json")
            try Data(#"{"main": {"video_sources": ["*"]}}"#.utf8).write(to: file)
            layout = "twilio:\(file.path)"
        }
        let recorder = try Self.start(["replay", Repository.root.appendingPathComponent("Samples/\(sample)").path, "--out", live.path,
                                       "--speed", "4", "--tick", "0.25"], log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        let options = Self.encoding + (layout.map { ["--layout", $0] } ?? [])
        let composed = try CLI.run(["compose", live.path, "--out", followed.path, "--follow"] + options)
        recorder.waitUntilExit()
        #expect(recorder.terminationStatus == 0)
        #expect(composed.status == 0, "\(composed.stderr)")
        // Some chunks were composed while the session was recorded, not all at the end.
        let during = composed.stderr.firstMatch(of: /(\d+) of (\d+) chunks while it was recorded/)
        #expect((during.flatMap { Int($0.1) } ?? 0) >= 2, "\(composed.stderr)")

        let whole = root.appendingPathComponent("whole")
        #expect(try CLI.run(["compose", live.path, "--out", whole.path] + options).status == 0)
        let a = Self.files(followed), b = Self.files(whole)
        #expect(Set(a.keys) == Set(b.keys))
        // The segments carry the audio, whose loudness was set as it was heard: compared stream by stream below.
        for (name, data) in b where !["report.json", "report.html", ".stagemix-output"].contains(name) && !name.hasSuffix(".ts") {
            #expect(a[name] == data, "\(name) differs from the whole run's")
        }
        let mine = try Self.streams(followed), theirs = try Self.streams(whole)
        #expect(mine.video == theirs.video && !mine.video.isEmpty, "the video packets differ from the whole run's")
        // Every audio packet at the whole run's time, every sample there: no gap, no repeat at a chunk's boundary.
        #expect(mine.audioTimes == theirs.audioTimes && mine.audioTimes.count > 1000)
        #expect(mine.audioBytes == theirs.audioBytes)
        let loudness = try LoudnessTests.ffmpegLoudness(followed.appendingPathComponent("hls/index.m3u8"))
        #expect(abs(loudness.lufs - -16) <= 1, "\(loudness)")
        #expect(loudness.truePeak <= -0.5, "\(loudness)")
        // report.json says that it followed, the lag it kept and how the loudness was set.
        let report = try #require(try JSONSerialization.jsonObject(with: a["report.json"] ?? Data()) as? [String: Any])
        let followedReport = try #require(report["followed"] as? [String: Any])
        #expect((followedReport["chunksWhileRecorded"] as? Int ?? 0) >= 2 && (followedReport["chunks"] as? Int ?? 0) >= 5, "\(followedReport)")
        #expect((followedReport["maxLagSeconds"] as? Double ?? -1) >= 0 && (followedReport["loudnessMethod"] as? String)?.hasPrefix("causal") == true)
        // The speaker layout hears as the session is recorded, 3 s ahead of the chunks it plans: its
        // turns are the whole run's, and the join never starts over. The Twilio grid's does.
        #expect(composed.stderr.contains("the join started over") == (sample == "screenshare"), "\(composed.stderr)")
        let wholeReport = try #require(try JSONSerialization.jsonObject(with: b["report.json"] ?? Data()) as? [String: Any])
        #expect(wholeReport["followed"] == nil)
        // No work folder is left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// A ladder and an MP4, whose containers a followed run opens before the session's end is known:
    /// the audio-only playlist still ends with the video and is cut where a whole run cuts it, and
    /// the MP4 gets the stage's events as chapters (written in its trailer).
    @Test func aLadderAndAnMP4FollowedAreCutAndChapteredAsAWholeRunsAre() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = root.appendingPathComponent("live"), followed = root.appendingPathComponent("followed")
        let recorder = try Self.start(["replay", Repository.root.appendingPathComponent("Samples/panel").path, "--out", live.path,
                                       "--speed", "4", "--tick", "0.25"], log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        let options = Self.encoding + ["--renditions", "640x360@800k,320x180@300k", "--mp4"]
        let composed = try CLI.run(["compose", live.path, "--out", followed.path, "--follow"] + options)
        recorder.waitUntilExit()
        #expect(composed.status == 0, "\(composed.stderr)")
        let whole = root.appendingPathComponent("whole")
        #expect(try CLI.run(["compose", live.path, "--out", whole.path] + options).status == 0)
        // A bitrate ladder's x264 is not bit-exact run to run: the playlists, the chapters and the packets' times are compared.
        for name in ["hls/audio/index.m3u8", "hls/640x360/index.m3u8", "hls/320x180/index.m3u8"] {
            let mine = try String(contentsOf: followed.appendingPathComponent(name), encoding: .utf8)
            #expect(mine == (try String(contentsOf: whole.appendingPathComponent(name), encoding: .utf8)), "\(name) differs from the whole run's")
        }
        func probe(_ output: URL, _ arguments: [String], _ file: String) throws -> String {
            try Self.ffmpeg(arguments + [output.appendingPathComponent(file).path], tool: "ffprobe")
        }
        for (arguments, file) in [(["-show_chapters", "-of", "csv"], "composition.mp4"),
                                  (["-select_streams", "a", "-show_entries", "packet=pts,duration", "-of", "csv"], "composition.mp4"),
                                  (["-select_streams", "v", "-show_entries", "packet=pts,dts,flags", "-of", "csv"], "composition.mp4"),
                                  (["-select_streams", "a", "-show_entries", "packet=pts,duration", "-of", "csv"], "hls/audio/index.m3u8")] {
            let mine = try probe(followed, arguments, file)
            #expect(mine == (try probe(whole, arguments, file)) && mine.count > 100, "\(arguments) of \(file) differ from the whole run's")
        }
    }

    /// A microphone the recorder writes nothing for, for three seconds (made by the ffmpeg CLI): while it
    /// is recorded the end of its file is only where the recorder has got to, so the voice after the
    /// silence is heard as in a whole run, not taken for the file's end; the gap is reported the same.
    @Test func aMicrophoneSilentForSecondsWhileRecordedIsHeardAgainAfter() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let gap = root.appendingPathComponent("gap")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Samples/panel"), to: gap)
        let mic = gap.appendingPathComponent("media/TR_maya_mic.ogg"), cut = root.appendingPathComponent("cut.ogg")
        try FFmpegTool.run(["-i", mic.path, "-af", "aselect='not(between(t,17,21))'", "-c:a", "libopus", "-b:a", "48k", cut.path])
        try FileManager.default.removeItem(at: mic)
        try FileManager.default.moveItem(at: cut, to: mic)
        let live = root.appendingPathComponent("live"), followed = root.appendingPathComponent("followed")
        let recorder = try Self.start(["replay", gap.path, "--out", live.path, "--speed", "2", "--tick", "0.25"],
                                      log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        let composed = try CLI.run(["compose", live.path, "--out", followed.path, "--follow"] + Self.encoding)
        recorder.waitUntilExit()
        #expect(composed.status == 0, "\(composed.stderr)")
        let whole = root.appendingPathComponent("whole")
        #expect(try CLI.run(["compose", live.path, "--out", whole.path] + Self.encoding).status == 0)
        func meanVolume(_ output: URL) throws -> Double {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = ["-nostdin", "-nostats", "-i", output.appendingPathComponent("hls/index.m3u8").path, "-map", "0:a",
                                 "-af", "atrim=22:27,volumedetect", "-f", "null", "-"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let match = try #require(text.firstMatch(of: /mean_volume: (-?[0-9.]+) dB/), "\(text.suffix(500))")
            return Double(match.1) ?? -.infinity
        }
        // Maya talks again after the silence: as loud as in a whole run (the loudness set as heard, so within 2 dB).
        let mine = try meanVolume(followed), theirs = try meanVolume(whole)
        #expect(theirs > -40 && abs(mine - theirs) <= 2, "followed \(mine) dB, whole run \(theirs) dB")
        func losses(_ output: URL) throws -> String {
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json"))) as? [String: Any]
            let losses = report?["losses"] ?? []
            return String(decoding: try JSONSerialization.data(withJSONObject: losses, options: [.sortedKeys]), as: UTF8.self)
        }
        let lost = try losses(followed), wholeLost = try losses(whole)
        #expect(lost == wholeLost, "followed: \(lost)\nwhole run: \(wholeLost)")
    }

    /// An output in a bucket: the segments go up as the session is recorded, the rest at its end; the
    /// objects are a whole run's (into another prefix), the video packets and playlists the same.
    @Test func aFollowedOutputInABucketIsTheWholeRunsThere() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try moto.boto3("""
            s3.create_bucket(Bucket="outputs")
            """)
        let live = root.appendingPathComponent("live")
        let recorder = try Self.start(["replay", Repository.root.appendingPathComponent("Samples/panel").path, "--out", live.path,
                                       "--speed", "4", "--tick", "0.25"], log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        let composed = try CLI.run(["compose", live.path, "--out", "s3://outputs/followed", "--follow"] + Self.encoding, environment: moto.environment())
        recorder.waitUntilExit()
        #expect(composed.status == 0, "\(composed.stderr)")
        let whole = try CLI.run(["compose", live.path, "--out", "s3://outputs/whole"] + Self.encoding, environment: moto.environment())
        #expect(whole.status == 0, "\(whole.stderr)")
        let a = try moto.objects(bucket: "outputs", prefix: "followed"), b = try moto.objects(bucket: "outputs", prefix: "whole")
        #expect(Set(a.keys) == Set(b.keys) && a[".stagemix-output"] != nil)
        for name in ["timeline.json", "billing.json", "plan.json", "hls/index.m3u8"] {
            #expect(a[name] != nil && a[name] == b[name], "\(name) differs from the whole run's")
        }
        // No work of the run stayed behind on this machine.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// `--live-out`: while the session is recorded, an EVENT playlist of the segments composed so far,
    /// never shrinking; at the end the output's own playlist and segments, ended. A folder StageMix did
    /// not write is refused, and `--live-out` without `--follow` is a usage error.
    @Test func theLivePlaylistGrowsWhileRecordedAndEndsWithTheOutput() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = root.appendingPathComponent("live"), followed = root.appendingPathComponent("followed")
        let liveOut = root.appendingPathComponent("on-air")
        let recorder = try Self.start(["replay", Repository.root.appendingPathComponent("Samples/panel").path, "--out", live.path,
                                       "--speed", "4", "--tick", "0.25"], log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        let log = root.appendingPathComponent("compose.log")
        let composer = try Self.start(["compose", live.path, "--out", followed.path, "--follow", "--live-out", liveOut.path] + Self.encoding, log: log)
        // What the live playlist said while the session was recorded, in the order seen.
        var seen: [[String]] = []
        let playlist = liveOut.appendingPathComponent("index.m3u8")
        while recorder.isRunning {
            if let text = try? String(contentsOf: playlist, encoding: .utf8) {
                #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !text.contains("#EXT-X-ENDLIST"), "\(text)")
                let segments = text.split(separator: "\n").filter { $0.hasPrefix("segment_") }.map(String.init)
                if segments != seen.last { seen.append(segments) }
                for name in segments { #expect(FileManager.default.fileExists(atPath: liveOut.appendingPathComponent(name).path)) }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        composer.waitUntilExit()
        #expect(composer.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        // It grew while the session went on, each version the one before and more.
        #expect(seen.count >= 2 && (seen.first?.count ?? 0) >= 1, "\(seen)")
        for (before, after) in zip(seen, seen.dropFirst()) { #expect(Array(after.prefix(before.count)) == before, "\(seen)") }
        // At the end: the output's playlist as an EVENT playlist, ended, over the output's own segments.
        let final = try String(contentsOf: playlist, encoding: .utf8)
        let output = try String(contentsOf: followed.appendingPathComponent("hls/index.m3u8"), encoding: .utf8)
        #expect(final == output.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD", with: "#EXT-X-PLAYLIST-TYPE:EVENT"))
        #expect(final.contains("#EXT-X-ENDLIST"))
        for name in output.split(separator: "\n").filter({ $0.hasPrefix("segment_") }) {
            #expect(FileManager.default.contents(atPath: liveOut.appendingPathComponent(String(name)).path)
                    == FileManager.default.contents(atPath: followed.appendingPathComponent("hls/\(name)").path), "\(name)")
        }

        // A folder StageMix did not write is left alone; --live-out without --follow is a usage error.
        let foreign = root.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("notes.txt"))
        let refused = try CLI.run(["compose", live.path, "--out", root.appendingPathComponent("again").path, "--follow", "--live-out", foreign.path])
        #expect(refused.status == 65 && refused.stderr.contains("did not write"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign.path) == ["notes.txt"])
        #expect(try CLI.run(["compose", live.path, "--out", root.appendingPathComponent("again").path, "--live-out", liveOut.path]).status == 64)
        #expect(try CLI.run(["compose", live.path, "--out", followed.path, "--follow", "--live-out", followed.appendingPathComponent("live").path]).status == 64)
    }

    @Test func aRecorderThatStopsOrBreaksTheContractIsRefusedAndNothingIsPublished() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = root.appendingPathComponent("live")
        let recorder = try Self.start(["replay", Repository.root.appendingPathComponent("Samples/panel").path, "--out", live.path,
                                       "--speed", "2", "--tick", "0.25"], log: root.appendingPathComponent("replay.log"))
        while !FileManager.default.fileExists(atPath: live.appendingPathComponent("session.json").path) { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 1)
        recorder.terminate()   // a recorder that dies mid-session: the capture stays in progress
        recorder.waitUntilExit()
        let out = root.appendingPathComponent("out")
        let stalled = try CLI.run(["compose", live.path, "--out", out.path, "--follow", "--follow-timeout", "2"] + Self.encoding)
        #expect(stalled.status == 75, "\(stalled.stderr)")
        #expect(stalled.stderr.contains("added nothing for 2 s") && stalled.stderr.contains("complete to"), "\(stalled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)

        // Options --follow cannot honour are usage errors.
        #expect(try CLI.run(["compose", "s3://bucket/live", "--out", out.path, "--follow"]).status == 64)
        let edits = root.appendingPathComponent("edits.json")
        try #"{"format": "stagemix.edits/1"}"#.write(to: edits, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["compose", live.path, "--out", out.path, "--follow", "--edits", edits.path]).status == 64)
    }

    /// Writes a version of `session.json` as a recorder does: whole, under another name, renamed over it.
    static func replace(_ manifest: URL, with document: [String: Any]) throws {
        let next = manifest.deletingLastPathComponent().appendingPathComponent(".session.json.next")
        try JSONSerialization.data(withJSONObject: document).write(to: next)
        #expect(rename(next.path, manifest.path) == 0)
    }

    @Test func aRecorderThatRewritesAnEarlierEventIsRefusedNamingIt() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = try CaptureInProgressCommandTests.inProgress(in: root)
        let manifest = live.appendingPathComponent("session.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        var events = try #require(document["events"] as? [[String: Any]])
        let cy = try #require(events.firstIndex { $0["type"] as? String == "participant.joined" && $0["participantId"] as? String == "p-cy" })
        let out = root.appendingPathComponent("out"), log = root.appendingPathComponent("follow.log")
        let follower = try Self.start(["compose", live.path, "--out", out.path, "--follow", "--follow-timeout", "30"] + Self.encoding, log: log)
        // The recorder keeps rewriting Cy's join, each version valid on its own: whichever two versions the
        // follower reads in turn, they differ there.
        for round in 0..<100 where follower.isRunning {
            events[cy]["mode"] = round % 2 == 0 ? "SEND_AND_RECV" : "SIGNALLING_ONLY"
            document["events"] = events
            try Self.replace(manifest, with: document)
            Thread.sleep(forTimeInterval: 0.2)
        }
        if follower.isRunning { follower.terminate() }
        follower.waitUntilExit()
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(follower.terminationStatus == 65, "\(stderr)")
        #expect(stderr.contains(manifest.lastPathComponent + ": $.events[\(cy)].mode") && stderr.contains("as the version before said"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func mediaThatKeepGrowingAreARecorderAtWork() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let live = try CaptureInProgressCommandTests.inProgress(in: root)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: live.appendingPathComponent("session.json"))) as? [String: Any])
        let audio = try #require((document["tracks"] as? [[String: Any]])?.compactMap { $0["file"] as? String }.first)
        let out = root.appendingPathComponent("out"), log = root.appendingPathComponent("follow.log")
        let follower = try Self.start(["compose", live.path, "--out", out.path, "--follow", "--follow-timeout", "2"] + Self.encoding, log: log)
        // session.json never changes again; a microphone's file grows every half second for 4 s, then stops.
        let file = try FileHandle(forWritingTo: live.appendingPathComponent(audio))
        defer { try? file.close() }
        try file.seekToEnd()
        var ranWhileGrowing = true
        for _ in 0..<8 {
            Thread.sleep(forTimeInterval: 0.5)
            ranWhileGrowing = ranWhileGrowing && follower.isRunning
            try file.write(contentsOf: Data(count: 1_000))
        }
        #expect(ranWhileGrowing && follower.isRunning, "it timed out while the media grew: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        follower.waitUntilExit()
        let stderr = try String(contentsOf: log, encoding: .utf8)
        #expect(follower.terminationStatus == 75, "\(stderr)")
        #expect(stderr.contains("added nothing for 2 s"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
