import Foundation
import Testing
import StageMixTestSupport
import StageMixSynth
#if canImport(Glibc)
import Glibc
#endif

/// `stagemix` with captures and outputs in an S3-compatible store (moto on loopback, signatures
/// checked): the same output as on disk, only the media the plan shows fetched, nothing of anyone
/// else's touched, and the store's failures told apart from bad input.
@Suite("object storage from the command line", .serialized)
struct ObjectStorageCommandTests {
    typealias CLI = CommandLineTests

    static let fast = ["--preset", "ultrafast", "--resolution", "320x180", "--fps", "10"]

    /// A 3 s capture with a viewer (Cy) who is never on stage, uploaded under `s3://captures/<prefix>`.
    static func capture(in root: URL, uploadedTo moto: MotoServer, prefix: String) throws -> URL {
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(3_000), to: capture)
        try moto.upload(capture, bucket: "captures", prefix: prefix)
        try moto.boto3("""
            try:
                s3.create_bucket(Bucket="outputs")
            except s3.exceptions.BucketAlreadyOwnedByYou:
                pass
            """)
        return capture
    }

    /// Every file under a local output, relative path to SHA-256.
    static func files(_ folder: URL) throws -> [String: String] {
        try MotoServer.python("""
            import hashlib, json, os
            root = "\(folder.path)"
            out = {}
            for d, _, files in os.walk(root):
                for f in files:
                    p = os.path.join(d, f)
                    out[os.path.relpath(p, root)] = hashlib.sha256(open(p, "rb").read()).hexdigest()
            print(json.dumps(out))
            """).data(using: .utf8).map { try JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }

    @Test func aCaptureInABucketComposesToAnotherPrefixAsOnDiskFetchingOnlyWhatIsShown() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.capture(in: root, uploadedTo: moto, prefix: "panel")
        let local = root.appendingPathComponent("local")
        let onDisk = try CLI.run(["compose", capture.path, "--out", local.path] + Self.fast)
        #expect(onDisk.status == 0, "\(onDisk.stderr)")

        let mark = moto.logMark()
        let composed = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/panel"] + Self.fast, environment: moto.environment())
        #expect(composed.status == 0, "\(composed.stderr)")
        #expect(composed.stderr.contains("s3://outputs/panel/hls/index.m3u8"), "\(composed.stderr)")
        let requests = moto.requests(since: mark)

        // The same files; the reports that describe the composition are byte for byte the same.
        let there = try moto.objects(bucket: "outputs", prefix: "panel")
        let here = try Self.files(local)
        #expect(Set(there.keys) == Set(here.keys))
        for name in ["timeline.json", "billing.json", "plan.json", "hls/index.m3u8"] {
            #expect(there[name] != nil && there[name] == here[name], "\(name)")
        }
        let marker = String(decoding: try moto.object(bucket: "outputs", key: "panel/.stagemix-output"), as: UTF8.self)
        #expect(marker.contains("\"hls\"") && marker.contains("\"report.json\""), "\(marker)")

        // The subscription guarantee, in the server's own log: Cy was never on stage and the tiles
        // need the low layer only, so no other media object was ever asked for, not even its size.
        let fetched = Set(requests.filter { ($0.method == "GET" || $0.method == "HEAD") && $0.path.hasPrefix("/captures/panel/media/") }
            .map { String($0.path.dropFirst("/captures/panel/".count)) })
        #expect(!fetched.isEmpty)
        #expect(fetched.allSatisfy { !$0.contains("TR_cy") }, "\(fetched.sorted())")
        #expect(fetched.allSatisfy { !$0.contains("-high") && !$0.contains("-medium") }, "\(fetched.sorted())")
        // The marker went up last; segments before their playlists.
        let puts = requests.filter { $0.method == "PUT" && $0.path.hasPrefix("/outputs/panel/") }.map(\.path)
        #expect(puts.last == "/outputs/panel/.stagemix-output", "\(puts.suffix(3))")
        if let playlist = puts.firstIndex(of: "/outputs/panel/hls/index.m3u8"), let segment = puts.lastIndex(where: { $0.hasSuffix(".ts") }) {
            #expect(segment < playlist)
        }
        #expect(!composed.stderr.contains(moto.secretAccessKey))
    }

    @Test func aForeignPrefixWrongKeysAMissingBucketAndAnUnreachableStoreAreToldApart() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.capture(in: root, uploadedTo: moto, prefix: "panel")
        try moto.boto3(#"s3.put_object(Bucket="outputs", Key="photos/cat.jpg", Body=b"cat")"#)
        let before = try moto.objects(bucket: "outputs", prefix: "")

        let foreign = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/photos", "--overwrite"] + Self.fast,
                                  environment: moto.environment())
        #expect(foreign.status == 65, "\(foreign.stderr)")
        #expect(foreign.stderr.contains("s3://outputs/photos") && foreign.stderr.contains("cat.jpg"), "\(foreign.stderr)")

        let inside = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://captures/panel/out"] + Self.fast, environment: moto.environment())
        #expect(inside.status == 65 && inside.stderr.contains("overlaps the capture"), "\(inside.stderr)")

        let forged = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/new"] + Self.fast,
                                 environment: moto.environment(secret: "not-the-secret-key"))
        #expect(forged.status == 65, "\(forged.stderr)")
        #expect(forged.stderr.contains("SignatureDoesNotMatch") && forged.stderr.contains("s3://captures/panel"), "\(forged.stderr)")
        #expect(!forged.stderr.contains("not-the-secret-key") && !forged.stderr.contains(moto.secretAccessKey))

        let missing = try CLI.run(["plan", "s3://no-such-bucket/panel"], environment: moto.environment())
        #expect(missing.status == 65, "\(missing.stderr)")
        #expect(missing.stderr.contains("s3://no-such-bucket/panel"), "\(missing.stderr)")

        let toNowhere = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://missing-bucket/out"] + Self.fast,
                                    environment: moto.environment())
        #expect(toNowhere.status == 65, "\(toNowhere.stderr)")
        #expect(toNowhere.stderr.contains("NoSuchBucket"), "\(toNowhere.stderr)")

        // Nothing listens there: the retries run out and the failure is temporary (75), for a queue to retry.
        let closed = URL(string: "http://127.0.0.1:9")!
        let unreachable = try CLI.run(["plan", "s3://captures/panel"], environment: moto.environment(endpoint: closed))
        #expect(unreachable.status == 75, "\(unreachable.stderr)")
        #expect(unreachable.stderr.contains("s3://captures/panel/session.json") && unreachable.stderr.contains("Unreachable"), "\(unreachable.stderr)")

        #expect(try moto.objects(bucket: "outputs", prefix: "") == before, "nothing in the bucket changed")
    }

    @Test func overwriteReplacesAnEarlierOutputWholeAndARerunAfterAKillCompletesAndAbortsLeftoverUploads() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.capture(in: root, uploadedTo: moto, prefix: "panel")
        let environment = moto.environment()

        let first = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/show"] + Self.fast + ["--thumbnails", "1"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let earlier = try moto.objects(bucket: "outputs", prefix: "show")
        #expect(earlier.keys.contains("poster.jpg"))
        let again = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/show"] + Self.fast, environment: environment)
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderr.contains("--overwrite"), "\(again.stderr)")
        #expect(try moto.objects(bucket: "outputs", prefix: "show") == earlier)

        let replaced = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/show", "--overwrite"] + Self.fast, environment: environment)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let now = try moto.objects(bucket: "outputs", prefix: "show")
        // Without thumbnails this time: the earlier output's poster and thumbnails are gone, nothing staged is left.
        #expect(!now.keys.contains("poster.jpg") && !now.keys.contains { $0.hasPrefix("thumbnails") }, "\(now.keys.sorted())")
        #expect(!now.keys.contains { $0.hasPrefix(".stagemix-staging") || $0 == ".stagemix-partial" }, "\(now.keys.sorted())")
        #expect(now.keys.contains(".stagemix-output") && now.keys.contains("hls/index.m3u8"))

        // A run killed while uploading leaves segments, its note and (here, made by hand) an upload in parts.
        try moto.boto3(#"""
            u = s3.create_multipart_upload(Bucket="outputs", Key="killed/composition.mp4")
            s3.upload_part(Bucket="outputs", Key="killed/composition.mp4", UploadId=u["UploadId"], PartNumber=1, Body=b"x" * 1024)
            """#)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["compose", "s3://captures/panel", "--out", "s3://outputs/killed", "--preset", "medium", "--resolution", "1280x720"]
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        // The note goes up before the first segment: from then on, the prefix holds a partial output.
        while Date() < deadline, (try? moto.objects(bucket: "outputs", prefix: "killed").keys.contains(".stagemix-partial")) != true {
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = try moto.objects(bucket: "outputs", prefix: "killed")
        #expect(left.keys.contains(".stagemix-partial") && !left.keys.contains(".stagemix-output"), "\(left.keys.sorted())")

        let rerun = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/killed"] + Self.fast, environment: environment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let complete = try moto.objects(bucket: "outputs", prefix: "killed")
        #expect(complete.keys.contains(".stagemix-output") && !complete.keys.contains(".stagemix-partial"), "\(complete.keys.sorted())")
        #expect(try moto.openMultipartUploads(bucket: "outputs") == 0)
    }
}

extension ObjectStorageCommandTests {
    /// The marker's PUT landed, its answer was lost (a connection cut, as scripts/chaos's proxy does):
    /// the retry is answered 412 by `If-None-Match: *`, and the marker there is this run's own, so the
    /// output is published, not refused as another run's.
    @Test func aMarkerWhoseAnswerWasLostIsTheRunsOwn() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.capture(in: root, uploadedTo: moto, prefix: "panel")
        let proxy = try FaultProxy(upstream: moto.endpoint, every: Int.max, faults: ["slow"], losing: "/.stagemix-output")
        defer { proxy.stop() }
        let run = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/lost"] + Self.fast,
                              environment: moto.environment(endpoint: proxy.endpoint))
        #expect(proxy.injected()["lost"] == 1, "\(proxy.injected())")
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try moto.objects(bucket: "outputs", prefix: "lost")
        #expect(objects.keys.contains(".stagemix-output") && objects.keys.contains("hls/index.m3u8"), "\(objects.keys.sorted())")
        #expect(!objects.keys.contains(".stagemix-partial"), "\(objects.keys.sorted())")
    }

    @Test func throughFaultsTheOutputIsTheSameAsWithout() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.capture(in: root, uploadedTo: moto, prefix: "panel")
        let clean = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/clean"] + Self.fast, environment: moto.environment())
        #expect(clean.status == 0, "\(clean.stderr)")

        // Every third request fails in turn: 503 SlowDown, 500, an answer cut off mid-body, a slow answer.
        let proxy = try FaultProxy(upstream: moto.endpoint, every: 3, faults: ["slowdown", "500", "drop", "slow"])
        defer { proxy.stop() }
        let faulty = try CLI.run(["compose", "s3://captures/panel", "--out", "s3://outputs/faulty"] + Self.fast,
                                 environment: moto.environment(endpoint: proxy.endpoint))
        #expect(faulty.status == 0, "\(faulty.stderr)")
        let injected = proxy.injected()
        for fault in ["slowdown", "500", "drop", "slow"] { #expect(injected[fault, default: 0] > 0, "\(injected)") }

        let a = try moto.objects(bucket: "outputs", prefix: "clean"), b = try moto.objects(bucket: "outputs", prefix: "faulty")
        #expect(Set(a.keys) == Set(b.keys))
        for name in ["timeline.json", "billing.json", "plan.json", "hls/index.m3u8"] { #expect(a[name] == b[name], "\(name)") }
        #expect(try moto.openMultipartUploads(bucket: "outputs") == 0)
    }
}
