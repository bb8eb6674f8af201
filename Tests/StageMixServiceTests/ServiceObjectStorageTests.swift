import Foundation
import StageMixService
import StageMixStorage
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport

/// The service with captures and outputs in an S3-compatible store (moto on loopback, signatures
/// checked): only the prefixes `--allow-storage` names are ever read or written, a composition of a
/// capture in a bucket is published to a prefix of its own and listed by its URLs, and no credential
/// is stored, shown or sent.
@Suite("Service object storage", .serialized)
struct ServiceObjectStorageTests {
    @Test func anAllowedPrefixHoldsWholeSegmentsOnly() throws {
        let list = try StorageAllowList(["s3://captures/rec", "s3://whole-bucket", "s3://outputs/vod/"])
        func permits(_ url: String) -> Bool { StorageAllowList.location(url).map(list.permits) ?? false }
        for inside in ["s3://captures/rec", "s3://captures/rec/", "s3://captures/rec/x", "s3://captures/rec/x/y",
                       "s3://whole-bucket", "s3://whole-bucket/any/thing", "s3://outputs/vod/x"] {
            #expect(permits(inside), "\(inside)")
        }
        for outside in ["s3://captures/recordings", "s3://captures/recordings/x", "s3://captures/re", "s3://captures",
                        "s3://captures/x/rec", "s3://other/rec/x", "s3://outputs/vodka", "s3://whole-bucket2/x"] {
            #expect(!permits(outside), "\(outside)")
        }
        // Dot and empty segments are refused, not interpreted, wherever they would lead.
        for odd in ["s3://captures/rec/../recordings", "s3://captures/rec/./x", "s3://captures/rec//x", "s3://captures/rec/x//",
                    "s3://captures/rec/\u{1}", "http://captures/rec/x", "s3://Captures/rec", "captures/rec"] {
            #expect(StorageAllowList.location(odd) == nil, "\(odd)")
        }
        #expect(throws: ServiceSetupError.self) { try StorageAllowList(["s3://captures/rec", "/srv/captures"]) }
        #expect(throws: ServiceSetupError.self) { try StorageAllowList(["s3://captures/rec/.."]) }
    }

    @Test func aCaptureOutsideTheAllowedPrefixesIsRefusedUnreadAndNothingIsQueued() async throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        let sample = Repository.root.appendingPathComponent("Samples/panel")
        for (bucket, prefix) in [("captures", "rec/panel"), ("captures", "recordings/panel"), ("private", "rec/panel")] {
            try moto.upload(sample, bucket: bucket, prefix: prefix)
        }
        let service = try await ServiceFixture(backend: .sqlite, workers: 0, extra: ["--allow-storage", "s3://captures/rec"],
                                               environment: moto.environment())
        defer { Task { await service.stop() } }
        let token = try await ServiceFixture.token()
        let mark = moto.logMark()

        for capture in ["s3://captures/recordings/panel", "s3://private/rec/panel", "s3://captures/rec/../recordings/panel",
                        "s3://captures/rec//../../recordings/panel", "s3://captures"] {
            for route in ["/v1/compositions", "/v1/plans"] {
                let reply = try await service.request("POST", route, token: token, body: #"{"capture": "\#(capture)"}"#)
                #expect(reply.status == 422 && reply.json["field"] as? String == "capture", "\(route) \(capture): \(reply.body)")
                let detail = reply.json["detail"] as? String ?? ""
                #expect(detail.contains("not within any --allow-storage prefix") || detail.contains("no empty, '.' or '..' segments"),
                        "\(route) \(capture): \(detail)")
            }
        }
        let queue = try await QueueURL(service.queueURL).open()
        #expect(try await queue.list(limit: 100).isEmpty)
        // Never read: the store saw no request for anything outside the allowed prefix.
        let outside = moto.requests(since: mark).filter { !$0.path.hasPrefix("/captures/rec/") }
        #expect(outside.isEmpty, "\(outside)")

        // Inside it, the same capture is read (so the refusals above were the allow-list's), and queued.
        let plan = try await service.request("POST", "/v1/plans", token: token, body: #"{"capture": "s3://captures/rec/panel"}"#)
        #expect(plan.status == 200, "\(plan.body)")
        #expect((plan.json["billing"] as? [String: Any])?["durationMs"] as? Int == 30000, "\(plan.body.prefix(500))")
        #expect(moto.requests(since: mark).contains { $0.method == "GET" && $0.path == "/captures/rec/panel/session.json" })
        let created = try await service.request("POST", "/v1/compositions", token: token, body: #"{"capture": "s3://captures/rec/panel/"}"#)
        #expect(created.status == 201 && created.json["capture"] as? String == "s3://captures/rec/panel/", "\(created.body)")
        let jobs = try await queue.list(limit: 100)
        #expect(jobs.map(\.spec.capture) == ["s3://captures/rec/panel"], "the URL in one spelling")
        #expect(jobs.first?.spec.out == "\(service.outputRoot)/\(created.json["id"] as? String ?? "")")
        await queue.close()
    }

    @Test func aStoreOutOfReachIsA503NotA422() async throws {
        // Nothing listens on port 9: each request to the store is refused at once, and tried once.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
        environment["AWS_ACCESS_KEY_ID"] = "AKIDEXAMPLE"
        environment["AWS_SECRET_ACCESS_KEY"] = "not-a-real-secret"
        environment["AWS_ENDPOINT_URL"] = "http://127.0.0.1:9"
        environment["AWS_MAX_ATTEMPTS"] = "1"
        environment["HOME"] = try makeTemporaryDirectory(prefix: "stagemix-home-without-aws")
        let service = try await ServiceFixture(backend: .sqlite, workers: 0, extra: ["--allow-storage", "s3://captures/rec"],
                                               environment: environment)
        defer { Task { await service.stop() } }
        let token = try await ServiceFixture.token()
        for route in ["/v1/plans", "/v1/compositions"] {
            let reply = try await service.request("POST", route, token: token, body: #"{"capture": "s3://captures/rec/panel"}"#)
            let detail = reply.json["detail"] as? String ?? ""
            #expect(reply.status == 503, "\(route): \(reply.body)")
            #expect(detail.contains("s3://captures/rec/panel/session.json") && detail.contains("Unreachable"), "\(route): \(detail)")
            #expect(!reply.body.contains("not-a-real-secret"))
        }
        let queue = try await QueueURL(service.queueURL).open()
        #expect(try await queue.list(limit: 100).isEmpty)
        await queue.close()
    }

    @Test func anOutputRootInABucketMustBeAllowedOrServeRefusesToStart() async throws {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-serve-refused")
        try #"{"keys": {"k": "0123456789abcdef0123456789abcdef"}}"#.write(toFile: "\(directory)/keys.json", atomically: true, encoding: .utf8)
        let base = [try WorkerProcesses.binary, "serve", "--listen", "127.0.0.1:0", "--queue", "sqlite:\(directory)/queue.sqlite",
                    "--keys", "\(directory)/keys.json", "--workers", "0"]
        let refusals: [([String], String)] = [
            (["--capture-root", directory, "--output-root", "s3://outputs/vod"], "--output-root s3://outputs/vod: not within any --allow-storage prefix"),
            (["--allow-storage", "s3://outputs/vodka", "--output-root", "s3://outputs/vod"], "not within any --allow-storage prefix"),
            (["--allow-storage", "s3://outputs", "--output-root", "s3://outputs/vod/../x"], "--output-root s3://outputs/vod/../x"),
            (["--allow-storage", "outputs/vod", "--output-root", "s3://outputs/vod"], "--allow-storage outputs/vod: expected s3://bucket"),
            (["--output-root", "\(directory)/out"], "give at least one --capture-root or --allow-storage"),
        ]
        for (arguments, message) in refusals {
            let child = try ChildProcess(arguments: base + arguments) { _ in }
            let exit = await child.waitForExit()
            #expect(exit == .exited(64), "\(arguments): \(exit) \(child.stderrTail)")
            #expect(child.stderrTail.contains(message), "\(arguments): \(child.stderrTail)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/out"), "refused before making anything")
    }
}
