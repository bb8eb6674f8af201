import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport

extension ServiceObjectStorageTests {
    /// The whole path with the real `stagemix compose`: a capture in one bucket, the output root a
    /// prefix of another, the worker's compose child reaching the store with the serve process's own
    /// environment. The composition is published to `<output root>/<id>`, marker last, and listed by
    /// its `s3://` URLs in the API and the webhook; the queue's rows hold URLs, never a key.
    ///
    /// The output root is a whole bucket: moto 5.2.1 refuses correctly signed listings whose prefix
    /// holds a `/` (docs/storage.md), and `<root>/<id>` under a deeper root would be one.
    @Test func aCompositionOfACaptureInABucketIsPublishedToItsPrefixAndListedByURL() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let scratch = try makeTemporaryDirectory(prefix: "stagemix-s3-capture")
        try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", "\(scratch)/panel", "--duration", "2", "--jobs", "1"])
        try moto.upload(URL(fileURLWithPath: "\(scratch)/panel"), bucket: "captures", prefix: "rec/panel")
        try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
        let inputs = "\(scratch)/inputs"
        let service = try await ServiceFixture(
            backend: .sqlite, workers: 1, fakeCompose: false,
            extra: ["--allow-storage", "s3://captures/rec", "--allow-storage", "s3://outputs", "--inputs-root", inputs],
            outputRoot: "s3://outputs", environment: moto.environment())
        defer { Task { await service.stop() } }
        let receiver = WebhookReceiver(port: try freeLoopbackPort(), secret: ServiceFixture.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let token = try await ServiceFixture.token()

        let created = try await service.request("POST", "/v1/compositions", token: token, body: """
            {"capture": "s3://captures/rec/panel", "callbackUrl": "\(receiver.url)",
             "options": {"preset": "ultrafast", "resolution": "320x180", "fps": 10,
                         "prices": {"currency": "EUR", "perMinute": {"audio": 0.1, "HD": 1, "Full HD": 2, "2K": 3, "2K+": 4}}}}
            """)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        let done = try await service.waitFor(id, status: "completed", seconds: 60)

        let directory = "s3://outputs/\(id)"
        let outputs = done["outputs"] as? [String: String] ?? [:]
        #expect(outputs["directory"] == directory, "\(done)")
        #expect(outputs["playlist"] == "\(directory)/hls/index.m3u8")
        let objects = try moto.objects(bucket: "outputs", prefix: id)
        for (name, url) in outputs where name != "directory" {
            #expect(url.hasPrefix(directory + "/") && objects[String(url.dropFirst(directory.count + 1))] != nil, "\(name): \(url) in \(objects.keys.sorted())")
        }
        #expect(objects.keys.contains(".stagemix-output") && !objects.keys.contains(".stagemix-partial"), "\(objects.keys.sorted())")
        #expect(objects.keys.contains { $0.hasPrefix("hls/") && $0.hasSuffix(".ts") }, "\(objects.keys.sorted())")
        // Nothing else was written in the output bucket, and the capture's bucket is as it was.
        #expect(try moto.objects(bucket: "outputs", prefix: "").keys.allSatisfy { $0.hasPrefix("\(id)/") })
        #expect(try moto.objects(bucket: "captures", prefix: "").keys.allSatisfy { $0.hasPrefix("rec/panel/") })
        // The inline price table stayed on this machine, where the job read it.
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: inputs)) ?? []
        #expect(kept.count == 1 && kept[0].hasSuffix(".json"), "\(kept)")

        try await eventually(30, "the completed webhook") { receiver.events(of: id).last?.type == "composition.completed" }
        let completed = receiver.events(of: id).last?.body ?? ""
        let data = (try? JSONSerialization.jsonObject(with: Data(completed.utf8)) as? [String: Any])?["data"] as? [String: Any]
        #expect((data?["outputs"] as? [String: String])?["playlist"] == "\(directory)/hls/index.m3u8", "\(completed)")

        // No credential anywhere: not in the API's answers, the webhooks, the log, or any row of the queue.
        let list = try await service.request("GET", "/v1/compositions", token: token)
        let dump = try await run("/usr/bin/sqlite3", [String(service.queueURL.dropFirst("sqlite:".count)), ".dump"])
        #expect(dump.contains("s3://captures/rec/panel") && dump.contains(directory), "the rows hold the URLs")
        let seen = [created.body, list.body, try await service.request("GET", "/v1/compositions/\(id)", token: token).body,
                    service.log, dump] + receiver.all.map(\.body)
        for secret in [moto.secretAccessKey, moto.accessKeyId] {
            #expect(seen.allSatisfy { !$0.contains(secret) })
        }
    }
}
