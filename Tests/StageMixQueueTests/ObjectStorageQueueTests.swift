import Foundation
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `stagemix enqueue` and `stagemix worker` with a capture and an output in an S3-compatible store
/// (moto on loopback, signatures checked): the job holds the URLs as written and no credential; the
/// worker's own environment reaches the store, for its compose child and for the upload.
@Suite("Queue object storage", .serialized)
struct ObjectStorageQueueTests {
    @Test func aJobFromABucketToABucketIsComposedWithTheWorkersOwnCredentials() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let fixture = try await WorkerProcessTests.Fixture.make(.sqlite)
        do {
            try await Self.compose(fixture, moto: moto)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    /// Uploading an output can take longer than a lease: the worker renews it while it publishes, so
    /// the other worker, polling all along, never rescues the job and writes the same prefix too.
    @Test func aSlowUploadKeepsItsLeaseSoNoOtherWorkerTakesTheJob() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        // Every other request to the store waits two seconds: the upload takes several leases of two seconds.
        let proxy = try FaultProxy(upstream: moto.endpoint, every: 2, faults: ["slow"])
        defer { proxy.stop() }
        let fixture = try await WorkerProcessTests.Fixture.make(.sqlite)
        do {
            // A local capture: only the publish reaches the store.
            let capture = "\(fixture.directory)/captures/panel"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
            try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
            let direct = try EnvironmentFile(moto.environment(), in: fixture.directory, name: "direct")
            let slow = try EnvironmentFile(moto.environment(endpoint: proxy.endpoint), in: fixture.directory, name: "slow")
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", "s3://outputs/slow", "--preset", "ultrafast",
                                                    "--resolution", "320x180", "--fps", "10"], environment: direct)
            for name in ["first", "second"] {
                _ = try fixture.workers.start(name: name, leaseSeconds: 2, realCompose: true, environment: slow)
            }
            try await fixture.waitFor(id, .succeeded, seconds: 60)
            #expect(try await fixture.state(id).attempt == 1, "\(fixture.workers.logs())")
            #expect(proxy.injected()["slow", default: 0] >= 3, "the upload outlasted a lease: \(proxy.injected())")
            let objects = try moto.objects(bucket: "outputs", prefix: "slow")
            #expect(objects[".stagemix-output"] != nil && objects[".stagemix-partial"] == nil, "\(objects.keys.sorted())")
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    /// A store that refuses (here: the output's bucket is gone by the time the job runs) fails the job
    /// at once as bad input: the same refusal would come on every attempt.
    @Test func aStoreThatRefusesFailsTheJobAsBadInputWithoutRetrying() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let fixture = try await WorkerProcessTests.Fixture.make(.sqlite)
        do {
            let capture = "\(fixture.directory)/captures/panel"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
            try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
            let environment = try EnvironmentFile(moto.environment(), in: fixture.directory)
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", "s3://outputs/gone", "--preset", "ultrafast",
                                                    "--resolution", "320x180", "--fps", "10"], environment: environment)
            try moto.boto3(#"s3.delete_bucket(Bucket="outputs")"#)
            _ = try fixture.workers.start(name: "refused", realCompose: true, environment: environment)
            try await fixture.waitFor(id, .dead, seconds: 60)
            let job = try await fixture.state(id)
            #expect(job.attempt == 1, "not retried")
            #expect(job.lastError?.hasPrefix("bad input") == true && job.lastError?.contains("NoSuchBucket") == true, "\(job.lastError ?? "")")
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    /// A worker SIGKILLed while it uploads an output leaves objects under the partial note and, here, an
    /// upload in parts: the worker that rescues the job publishes a complete output and aborts the upload.
    @Test func aWorkerKilledDuringItsUploadIsRescuedAndTheOutputCompletesWithNoUploadLeftOpen() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        // Every request of the first worker waits two seconds: it is still uploading when it is killed.
        let proxy = try FaultProxy(upstream: moto.endpoint, every: 1, faults: ["slow"])
        defer { proxy.stop() }
        let fixture = try await WorkerProcessTests.Fixture.make(.sqlite)
        do {
            let capture = "\(fixture.directory)/captures/panel"
            try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
            try moto.boto3(#"""
                s3.create_bucket(Bucket="outputs")
                u = s3.create_multipart_upload(Bucket="outputs", Key="killed/composition.mp4")
                s3.upload_part(Bucket="outputs", Key="killed/composition.mp4", UploadId=u["UploadId"], PartNumber=1, Body=b"x" * 1024)
                """#)
            let direct = try EnvironmentFile(moto.environment(), in: fixture.directory, name: "direct")
            let slow = try EnvironmentFile(moto.environment(endpoint: proxy.endpoint), in: fixture.directory, name: "slow")
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", "s3://outputs/killed", "--preset", "ultrafast",
                                                    "--resolution", "320x180", "--fps", "10"], environment: direct)
            let first = try fixture.workers.start(name: "first", realCompose: true, environment: slow)
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline, (try? moto.objects(bucket: "outputs", prefix: "killed").keys.contains(".stagemix-partial")) != true {
                try await Task.sleep(for: .milliseconds(100))
            }
            first.send(SIGKILL)
            try await first.waitForExit(seconds: 10)
            let left = try moto.objects(bucket: "outputs", prefix: "killed")
            #expect(left.keys.contains(".stagemix-partial") && !left.keys.contains(".stagemix-output"), "killed mid-upload: \(left.keys.sorted())")

            _ = try fixture.workers.start(name: "second", realCompose: true, environment: direct)
            try await fixture.waitFor(id, .succeeded, seconds: 90)
            #expect(try await fixture.state(id).attempt == 2, "rescued: \(fixture.workers.logs())")
            let objects = try moto.objects(bucket: "outputs", prefix: "killed")
            #expect(objects[".stagemix-output"] != nil && objects[".stagemix-partial"] == nil && objects["hls/index.m3u8"] != nil,
                    "\(objects.keys.sorted())")
            #expect(try moto.openMultipartUploads(bucket: "outputs") == 0)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    static func compose(_ fixture: WorkerProcessTests.Fixture, moto: MotoServer) async throws {
        let capture = "\(fixture.directory)/captures/panel"
        try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "2", "--jobs", "1"])
        try moto.upload(URL(fileURLWithPath: capture), bucket: "captures", prefix: "rec/panel")
        try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
        let environment = try EnvironmentFile(moto.environment(), in: fixture.directory)

        let arguments = ["enqueue", "s3://captures/rec/panel", "--out", "s3://outputs/panel", "--preset", "ultrafast",
                         "--resolution", "320x180", "--fps", "10"]
        let id = try await fixture.workers.cli(arguments, environment: environment)
        #expect(try await fixture.workers.cli(arguments, environment: environment) == id, "the same job twice is one job")
        let queued = try await fixture.state(id)
        #expect(queued.spec.capture == "s3://captures/rec/panel" && queued.spec.out == "s3://outputs/panel", "\(queued.spec)")

        _ = try fixture.workers.start(name: "s3", realCompose: true, environment: environment)
        try await fixture.waitFor(id, .succeeded, seconds: 60)
        let objects = try moto.objects(bucket: "outputs", prefix: "panel")
        for name in [".stagemix-output", "hls/index.m3u8", "timeline.json", "billing.json", "report.json"] {
            #expect(objects[name] != nil, "\(name) in \(objects.keys.sorted())")
        }
        #expect(!objects.keys.contains(".stagemix-partial"))

        // The queue holds URLs only: no key in any row, nor in the worker's log.
        let dump = try await run("/usr/bin/sqlite3", [String(fixture.queueURL.dropFirst("sqlite:".count)), ".dump"])
        #expect(dump.contains("s3://captures/rec/panel") && dump.contains("s3://outputs/panel"))
        for secret in [moto.secretAccessKey, moto.accessKeyId] {
            #expect(!dump.contains(secret) && !fixture.workers.logs().contains(secret))
        }
    }
}

extension ObjectStorageQueueTests {
    /// A chunked composition whose output is in a bucket shares its work through a hidden prefix beside
    /// the output (no shared disk): two workers encode its chunks and join them, the output is a whole
    /// run's, and the prefix is gone once it is published.
    @Test func chunksShareTheirWorkThroughAPrefixBesideTheOutput() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let fixture = try await WorkerProcessTests.Fixture.make(.sqlite)
        do {
            let binary = try WorkerProcesses.binary
            let capture = "\(fixture.directory)/captures/panel"
            try await run(binary, ["synth", "panel", "--out", capture, "--duration", "12", "--jobs", "1"])
            try moto.upload(URL(fileURLWithPath: capture), bucket: "captures", prefix: "rec/panel")
            try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
            let environment = try EnvironmentFile(moto.environment(), in: fixture.directory)
            let options = ["--preset", "ultrafast", "--resolution", "320x180", "--fps", "10", "--thumbnails", "4"]
            let id = try await fixture.workers.cli(["enqueue", "s3://captures/rec/panel", "--out", "s3://outputs/panel",
                                                    "--chunk-seconds", "4"] + options, environment: environment)
            for name in ["s3a", "s3b"] { _ = try fixture.workers.start(name: name, realCompose: true, environment: environment) }
            try await fixture.waitFor(id, .succeeded, seconds: 90)
            #expect(try await fixture.queue.chunks(of: id).map(\.state) == [.succeeded, .succeeded, .succeeded])

            let everything = try moto.objects(bucket: "outputs", prefix: "")
            #expect(everything.keys.allSatisfy { $0.hasPrefix("panel/") }, "\(everything.keys.sorted())")
            let whole = "\(fixture.directory)/whole"
            _ = try await run(binary, ["compose", capture, "--out", whole] + options)
            for file in ["hls/index.m3u8", "timeline.json", "billing.json", "thumbnails.vtt"] {
                let chunked = String(decoding: try moto.object(bucket: "outputs", key: "panel/\(file)"), as: UTF8.self)
                #expect(chunked == (try String(contentsOfFile: "\(whole)/\(file)", encoding: .utf8)), "\(file) differs")
            }
            #expect(everything.keys.filter { $0.hasPrefix("panel/thumbnails/") }.count == 3)
            // No local work folder was left on this machine either.
            let temporary = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
            #expect(!temporary.contains { $0.hasPrefix("stagemix-chunks-\(id)") }, "\(temporary.filter { $0.hasPrefix("stagemix-chunks") })")
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }
}
