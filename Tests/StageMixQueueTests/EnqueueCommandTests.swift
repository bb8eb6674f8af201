import Foundation
import Testing
import StageMixOptions
@testable import StageMixQueue
import StageMixQueueTestSupport

/// `stagemix enqueue` takes every compose option, stores it, and refuses what compose would refuse
/// before anything is queued.
@Suite("enqueue command", .serialized)
struct EnqueueCommandTests {
    struct Outcome { var exit: ChildProcess.Exit; var stdout: String; var stderr: String }

    static func stagemix(_ arguments: [String]) async throws -> Outcome {
        let lines = LineCollector()
        let child = try ChildProcess(arguments: [try WorkerProcesses.binary] + arguments) { lines.append($0) }
        let exit = await child.waitForExit()
        return Outcome(exit: exit, stdout: lines.text, stderr: child.stderrTail)
    }

    @Test func everyComposeOptionIsQueuedAndHandedBackToCompose() async throws {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-enqueue")
        let capture = "\(directory)/capture"
        _ = try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "1", "--jobs", "1"])
        try #"{"currency": "EUR", "perMinute": {"HD": 0.5}}"#.write(toFile: "\(directory)/prices.json", atomically: false, encoding: .utf8)
        let queue = "sqlite:\(directory)/q.sqlite"
        let given = [
            "--layout", "spotlight", "--resolution", "640x360", "--fps", "25", "--pause-grace", "1.5",
            "--prices", "\(directory)/prices.json", "--overflow-tier", "Huge", "--segment-seconds", "2",
            "--segment-format", "fmp4", "--preset", "ultrafast", "--crf", "23.5", "--audio-bitrate", "96k",
            "--encoder-threads", "1", "--loudness", "-18",
        ]
        let enqueued = try await Self.stagemix(["enqueue", capture, "--out", "\(directory)/out", "--overwrite"] + given + ["--queue", queue])
        #expect(enqueued.exit == .exited(0), "\(enqueued.stderr)")
        // In chunks: the same options, and the composition's plan is its first phase.
        let chunked = try await Self.stagemix(["enqueue", capture, "--out", "\(directory)/chunked", "--chunk-seconds", "4",
                                               "--segment-seconds", "2", "--queue", queue])
        #expect(chunked.exit == .exited(0), "\(chunked.stderr)")
        let chunkedJob = try await QueueURL(queue).withQueue { try await $0.job(id: chunked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(chunkedJob?.spec.options.chunkSeconds == 4 && chunkedJob?.phase == .plan)
        let id = enqueued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = try await QueueURL("sqlite:\(directory)/q.sqlite").withQueue { try await $0.job(id: id) }
        let spec = try #require(stored?.spec)
        #expect(spec.options == ComposeOptions(
            layout: "spotlight", resolution: "640x360", fps: 25, pauseGrace: 1.5, prices: "\(directory)/prices.json",
            overflowTier: "Huge", segmentSeconds: 2, segmentFormat: "fmp4", preset: "ultrafast", crf: 23.5,
            audioBitrate: "96k", encoderThreads: 1, loudness: "-18", overwrite: true))
        // What the worker hands compose is what was given, and compose accepts it.
        let arguments = spec.composeArguments(outDirectory: "\(directory)/child-out")
        #expect(Array(arguments.dropFirst(3)) == given)
        let composed = try await Self.stagemix(["compose"] + arguments)
        #expect(composed.exit == .exited(0), "\(composed.stderr)")
    }

    @Test func enqueueRefusesWhatComposeWouldBeforeQueueing() async throws {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-enqueue")
        let capture = "\(directory)/capture"
        _ = try await run(try WorkerProcesses.binary, ["synth", "panel", "--out", capture, "--duration", "1", "--jobs", "1"])
        try "{}".write(toFile: "\(directory)/notes.json", atomically: false, encoding: .utf8)
        let queue = "sqlite:\(directory)/q.sqlite"
        let cases: [(arguments: [String], exit: Int32, says: String)] = [
            ([capture, "--resolution", "1281x721"], 64, "--resolution"),
            ([capture, "--preset", "warp"], 64, "--preset"),
            // A chunk is a whole number of segments (4 s by default).
            ([capture, "--chunk-seconds", "6"], 64, "--chunk-seconds"),
            ([capture, "--chunk-seconds", "8", "--segment-seconds", "3"], 64, "--chunk-seconds"),
            ([capture, "--crf", "60"], 64, "--crf"),
            ([capture, "--pause-grace", "-1"], 64, "--pause-grace"),
            ([capture, "--video-bitrate", "fast"], 64, "--video-bitrate"),
            ([capture, "--loudness", "loud"], 64, "--loudness"),
            (["\(directory)/none"], 65, "\(directory)/none"),
            // A layout that is neither built in nor a file is a mistyped option value (issue 26): 64.
            ([capture, "--layout", "nope"], 64, "nope"),
            ([capture, "--prices", "\(directory)/missing.json"], 65, "missing.json"),
        ]
        for (arguments, exit, says) in cases {
            let outcome = try await Self.stagemix(["enqueue"] + arguments + ["--out", "\(directory)/out", "--queue", queue])
            #expect(outcome.exit == .exited(exit), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(says), "\(arguments): \(outcome.stderr)")
            // compose says the same with the same code.
            let compose = try await Self.stagemix(["compose"] + arguments + ["--out", "\(directory)/out"])
            #expect(compose.exit == .exited(exit), "compose \(arguments): \(compose.stderr)")
        }
        for out in [capture, "\(directory)/notes.json", directory] {
            let outcome = try await Self.stagemix(["enqueue", capture, "--out", out, "--overwrite", "--queue", queue])
            #expect(outcome.exit == .exited(65), "--out \(out): \(outcome.stderr)")
        }
        let jobs = try await QueueURL(queue).withQueue { try await $0.list(limit: 10) }
        #expect(jobs.isEmpty, "nothing was queued")
    }
}
