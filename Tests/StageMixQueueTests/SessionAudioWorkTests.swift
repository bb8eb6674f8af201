import Foundation
import StageMixStorage
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport

/// The session's audio in a chunked composition's work in a bucket (moto on loopback): put in place
/// whole under its attempt's prefix and its marker `audio.json`, never over an earlier attempt's, and
/// brought whole to the join's local folder before the chunks.
@Suite("Session audio in a bucket work", .serialized)
struct SessionAudioWorkTests {
    @Test func theFirstAttemptInPlaceIsTheOneTheJoinFetches() throws {
        let moto = try MotoServer()
        defer { moto.stop() }
        _ = try moto.boto3(#"s3.create_bucket(Bucket="outputs")"#)
        let environment = moto.environment()
        let spec = JobSpec(capture: "/captures/panel", out: "s3://outputs/panel", options: .init(chunkSeconds: 4))
        func work() throws -> ChunkWork {
            try ChunkWork(spec: spec, compositionID: "c1", configuration: { () throws(StorageConfigurationError) in
                try StorageConfiguration.resolve(environment: environment, home: "/nonexistent")
            })
        }
        let planner = try work()
        try planner.prepare(fetchingRun: false)
        defer { planner.removeLocal() }
        try Data(#"{"capture":"/captures/panel","ranges":[],"audioApart":true}"#.utf8).write(to: planner.local.appendingPathComponent("run.json"))
        try planner.publishPlan()

        // Two attempts of the audio (the first one's worker lost its lease but went on): the first in place stays.
        let worker = try work()
        try worker.prepare(fetchingRun: true)
        defer { worker.removeLocal() }
        var folders: [URL] = []
        for (attempt, payload) in [(1, "first"), (2, "second")] {
            let folder = worker.attemptFolder(.audio, attempt: attempt)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(payload.utf8).write(to: folder.appendingPathComponent("audio.packets"))
            try Data("{}".utf8).write(to: folder.appendingPathComponent("audio.result.json"))
            folders.append(folder)
        }
        try worker.publish(.audio, from: folders[0])
        try worker.publish(.audio, from: folders[1])
        #expect(folders.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "an attempt's local folder goes once uploaded")
        let objects = try moto.objects(bucket: "outputs", prefix: ".panel.stagemix-chunks-c1")
        let marker = String(decoding: try moto.object(bucket: "outputs", key: ".panel.stagemix-chunks-c1/audio.json"), as: UTF8.self)
        #expect(marker == #"{"folder":"\#(folders[0].lastPathComponent)"}"#)
        #expect(objects.keys.filter { $0.hasSuffix("audio.packets") }.count == 1, "\(objects.keys.sorted())")

        // The join, on another machine: the audio is fetched whole into its folder (no chunk to wait for here).
        let join = try work()
        try join.prepare(fetchingRun: true)
        defer { join.removeLocal() }
        try join.fetchChunks(shouldStop: { false })
        #expect(try String(contentsOf: join.local.appendingPathComponent("audio/audio.packets"), encoding: .utf8) == "first")
        try join.remove()
        #expect(try moto.objects(bucket: "outputs", prefix: ".panel.stagemix-chunks-c1").isEmpty)
    }
}
