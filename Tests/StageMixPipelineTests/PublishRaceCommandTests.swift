import Foundation
import Testing
import StageMixTestSupport
import StageMixSynth
#if canImport(Glibc)
import Glibc
#endif

/// Two composes into one new output (issue 32, items 1 and 8), with real `stagemix` processes: of the
/// two exactly one exits 0, its output is whole and stays whole with nothing beside it that its marker
/// does not list, and the other says that another run is writing there, before doing the work, and
/// changes nothing. In a bucket the prefix's note is the lease (`If-None-Match: *`, `If-Match`).
@Suite("two composes into one output", .serialized)
struct PublishRaceCommandTests {
    typealias CLI = CommandLineTests
    /// Slow enough that the second run starts while the first composes.
    static let slow = ["--preset", "medium", "--resolution", "1280x720"]

    static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    static func finish(_ run: (Process, Pipe)) -> CLI.Run {
        let e = run.1.fileHandleForReading.readDataToEndOfFile()
        run.0.waitUntilExit()
        return CLI.Run(status: run.0.terminationStatus, stdout: "", stderr: String(decoding: e, as: UTF8.self))
    }

    static func waitFor(_ what: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !what() { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Checks that `objects` (relative key to digest) is one whole output: a marker listing every
    /// top-level name there, no note, and every segment the playlist names.
    static func expectWhole(_ objects: [String: String], marker: Data, playlist: String) throws {
        let listed = try #require(try JSONSerialization.jsonObject(with: marker) as? [String: Any])["entries"] as? [String] ?? []
        let unlisted = objects.keys.filter { $0 != ".stagemix-output" && !listed.contains(String($0.split(separator: "/")[0])) }
        #expect(unlisted.isEmpty, "under the prefix but not in its marker: \(unlisted.sorted())")
        #expect(objects[".stagemix-partial"] == nil)
        let segments = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!segments.isEmpty)
        for segment in segments { #expect(objects["hls/\(segment)"] != nil, "the playlist names hls/\(segment), which is not there") }
    }

    @Test func inALocalFolderTheSecondRunIsToldAtOnceAndTheFirstPublishes() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        let out = root.appendingPathComponent("race")
        let first = try Self.start(["compose", capture.path, "--out", out.path] + Self.slow)
        Self.waitFor { ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).contains { $0.hasPrefix(".race.stagemix-") } }
        // Held still while the second run starts, however loaded the machine: the first is surely composing.
        kill(first.0.processIdentifier, SIGSTOP)
        let began = Date()
        let second = try CLI.run(["compose", capture.path, "--out", out.path, "--layout", "sidebar", "--preset", "ultrafast"])
        kill(first.0.processIdentifier, SIGCONT)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("another StageMix run (pid \(first.0.processIdentifier)) is writing an output there"), "\(second.stderr)")
        #expect(Date().timeIntervalSince(began) < 10, "refused before composing")
        let done = Self.finish(first)
        #expect(done.status == 0, "\(done.stderr)")
        let plan = try String(contentsOf: out.appendingPathComponent("plan.json"), encoding: .utf8)
        #expect(!plan.contains("\"sidebar\""), "the output is the first run's")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["capture", "race"])
    }

    @Test func inABucketOneRunPublishesAWholeOutputAndTheOtherTouchesNothing() throws {
        try Self.withStore { moto in
            let environment = moto.environment()
            let first = try Self.start(["compose", "s3://captures/panel", "--out", "s3://vod/race2"] + Self.slow, environment: environment)
            Self.waitFor { (try? moto.objects(bucket: "vod", prefix: "race2").keys.contains(".stagemix-partial")) == true }
            kill(first.0.processIdentifier, SIGSTOP)
            let second = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://vod/race2", "--layout", "sidebar", "--preset", "ultrafast"],
                                     environment: environment)
            #expect(second.status == 75, "\(second.stderr)")
            #expect(second.stderr.contains("another StageMix run is writing an output there (pid \(first.0.processIdentifier) on "), "\(second.stderr)")
            kill(first.0.processIdentifier, SIGCONT)
            let done = Self.finish(first)
            #expect(done.status == 0, "\(done.stderr)")
            let objects = try moto.objects(bucket: "vod", prefix: "race2")
            try Self.expectWhole(objects, marker: try moto.object(bucket: "vod", key: "race2/.stagemix-output"),
                                 playlist: String(decoding: try moto.object(bucket: "vod", key: "race2/hls/index.m3u8"), as: UTF8.self))
            #expect(!String(decoding: try moto.object(bucket: "vod", key: "race2/plan.json"), as: UTF8.self).contains("\"sidebar\""))
            #expect(try moto.openMultipartUploads(bucket: "vod") == 0)
        }
    }

    /// Runs `body` with moto's S3 server holding the 3 s capture at `s3://captures/panel` and an empty bucket `vod`.
    static func withStore(_ body: (MotoServer) throws -> Void) throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try ObjectStorageCommandTests.capture(in: root, uploadedTo: moto, prefix: "panel")
        _ = try moto.boto3(#"s3.create_bucket(Bucket="vod")"#)
        try body(moto)
    }

    /// A note as another machine's run writes it, `heartbeat` seconds ago.
    static func note(heartbeatSecondsAgo heartbeat: Double, pid: Int = 4242) -> String {
        let format = ISO8601DateFormatter()
        return """
            {"format": "stagemix.partial/2", "run": "other-run", "host": "render-7", "boot": "b", "pid": \(pid), "startTicks": 1,
             "startedAt": "\(format.string(from: Date().addingTimeInterval(-heartbeat - 30)))",
             "heartbeatAt": "\(format.string(from: Date().addingTimeInterval(-heartbeat)))", "leaseSeconds": 60}
            """
    }

    static func put(_ moto: MotoServer, _ key: String, _ body: String) throws {
        _ = try moto.boto3("""
            import base64
            s3.put_object(Bucket="vod", Key="\(key)", Body=base64.b64decode("\(Data(body.utf8).base64EncodedString())"))
            """)
    }

    @Test func anotherMachinesLiveNoteIsLeftAloneAndADeadOnesIsTakenOver() throws {
        try Self.withStore { moto in
            let environment = moto.environment()
            let fast = ["--preset", "ultrafast", "--resolution", "320x180", "--fps", "10"]

            // Renewed 5 s ago by a run on another machine: it is writing.
            try Self.put(moto, "held/.stagemix-partial", Self.note(heartbeatSecondsAgo: 5))
            try Self.put(moto, "held/hls/segment_00000.ts", "theirs")
            let before = try moto.objects(bucket: "vod", prefix: "held")
            let refused = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://vod/held"] + fast, environment: environment)
            #expect(refused.status == 75, "\(refused.stderr)")
            #expect(refused.stderr.contains("another StageMix run is writing an output there (pid 4242 on render-7"), "\(refused.stderr)")
            #expect(try moto.objects(bucket: "vod", prefix: "held") == before, "nothing under the prefix changed")

            // Not renewed for five minutes: that run is dead, and what it left is replaced.
            try Self.put(moto, "held/.stagemix-partial", Self.note(heartbeatSecondsAgo: 300))
            let taken = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://vod/held"] + fast, environment: environment)
            #expect(taken.status == 0, "\(taken.stderr)")
            let objects = try moto.objects(bucket: "vod", prefix: "held")
            try Self.expectWhole(objects, marker: try moto.object(bucket: "vod", key: "held/.stagemix-output"),
                                 playlist: String(decoding: try moto.object(bucket: "vod", key: "held/hls/index.m3u8"), as: UTF8.self))
            #expect(objects["hls/segment_00000.ts"] != before["hls/segment_00000.ts"])
        }
    }

    @Test func aRunWhoseNoteWasTakenWritesAndDeletesNothingMore() throws {
        try Self.withStore { moto in
            let run = try Self.start(["compose", "s3://captures/panel", "--out", "s3://vod/taken"] + Self.slow, environment: moto.environment())
            Self.waitFor { (try? moto.objects(bucket: "vod", prefix: "taken").keys.contains(".stagemix-partial")) == true }
            // The run stalls (SIGSTOP, a frozen machine) and another machine, deciding it was dead, takes the prefix.
            kill(run.0.processIdentifier, SIGSTOP)
            let theirs = Self.note(heartbeatSecondsAgo: 0, pid: 777)
            try Self.put(moto, "taken/.stagemix-partial", theirs)
            kill(run.0.processIdentifier, SIGCONT)
            let ended = Self.finish(run)
            #expect(ended.status == 75, "\(ended.stderr)")
            #expect(ended.stderr.contains("another StageMix run took this prefix over"), "\(ended.stderr)")
            let left = try moto.objects(bucket: "vod", prefix: "taken")
            #expect(left[".stagemix-output"] == nil, "no marker vouches for a prefix another run holds")
            #expect(String(decoding: try moto.object(bucket: "vod", key: "taken/.stagemix-partial"), as: UTF8.self).contains("\"pid\": 777"),
                    "the other run's note is as it wrote it")
        }
    }
}
