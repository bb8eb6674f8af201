import Foundation
import StageMixQueue
import StageMixQueueTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The session's audio of a chunked composition run by real worker processes and the real `stagemix`,
/// on SQLite and on PostgreSQL: the worker that runs it is SIGKILLed once it is under way; another
/// worker takes it once its lease has run out, and the output's audio is a whole run's, packet for packet.
extension WorkerProcessTests {
    @Test(arguments: QueueBackend.allCases)
    func aWorkerKilledMidAudioLosesOnlyTheAudio(backend: QueueBackend) async throws {
        try await withFixture(backend) { fixture in
            let binary = try WorkerProcesses.binary
            let capture = "\(fixture.directory)/captures/panel"
            try await run(binary, ["synth", "panel", "--out", capture, "--duration", "16", "--jobs", "1"])
            // Worker a's compose command is stagemix itself, but the first session audio it runs kills
            // worker a (SIGKILL, named by --worker-pid) a moment after it started: a machine that died.
            let wrapper = "\(fixture.directory)/kill-at-audio.sh"
            try """
                #!/bin/bash
                if [ "$1" = compose-chunk ] && [[ " $* " == *" --audio "* ]] && mkdir '\(fixture.directory)/audio-killed' 2>/dev/null; then
                    worker=""; previous=""
                    for argument in "$@"; do [ "$previous" = --worker-pid ] && worker=$argument; previous=$argument; done
                    '\(binary)' "$@" &
                    sleep 0.2
                    kill -KILL "$worker"
                    wait $!
                    exit $?
                fi
                exec '\(binary)' "$@"
                """.write(toFile: wrapper, atomically: true, encoding: .utf8)
            let options = ["--preset", "ultrafast", "--resolution", "320x180"]
            let out = "\(fixture.directory)/out/chunked"
            let worker = try fixture.workers.start(name: "a", realCompose: true, extraArguments: ["--compose-command", "/bin/bash \(wrapper) compose"])
            let id = try await fixture.workers.cli(["enqueue", capture, "--out", out, "--chunk-seconds", "8"] + options)
            try await worker.waitForExit(seconds: 60)
            #expect(FileManager.default.fileExists(atPath: "\(fixture.directory)/audio-killed"), "worker a ended without running the audio")
            let lost = try #require(try await fixture.queue.sessionAudio(of: id))
            #expect(lost.leaseOwner == "a" || lost.state == .queued, "\(lost.state) \(lost.leaseOwner ?? "-")")

            _ = try fixture.workers.start(name: "b", realCompose: true)
            _ = try fixture.workers.start(name: "c", realCompose: true)
            try await fixture.waitFor(id, .succeeded, seconds: 120)
            let audio = try #require(try await fixture.queue.sessionAudio(of: id))
            #expect(audio.state == .succeeded && audio.attempt >= 2 && audio.leaseOwner != "a", "\(audio.state) \(audio.attempt)")
            let chunks = try await fixture.queue.chunks(of: id)
            #expect(chunks.count == 2 && chunks.allSatisfy { $0.state == .succeeded })
            #expect(fixture.leftovers() == [])
            let shown = try await fixture.workers.cli(["jobs", "show", id])
            #expect(shown.contains("audio:        succeeded, attempt \(audio.attempt) of 5"), "\(shown)")

            // The same audio as a whole run's, packet for packet (timestamps, durations, bytes).
            let whole = "\(fixture.directory)/whole"
            _ = try await run(binary, ["compose", capture, "--out", whole] + options)
            let probe = ["-v", "error", "-select_streams", "a", "-show_entries", "packet=pts,dts,duration,size,data_hash",
                         "-show_data_hash", "MD5", "-of", "csv=p=0"]
            let wholeAudio = try await run("/usr/bin/env", ["ffprobe"] + probe + ["\(whole)/hls/index.m3u8"])
            let chunkedAudio = try await run("/usr/bin/env", ["ffprobe"] + probe + ["\(out)/hls/index.m3u8"])
            #expect(wholeAudio.split(separator: "\n").count > 700, "16 s of AAC frames")
            #expect(chunkedAudio == wholeAudio)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json"))) as? [String: Any])
            let queue = try #require(report["queue"] as? [String: Any])
            #expect((queue["audio"] as? [String: Any])?["attempts"] as? Int == audio.attempt)
            let chunking = try #require(report["chunking"] as? [String: Any])
            #expect(((chunking["audio"] as? [String: Any])?["cpuSeconds"] as? Double ?? 0) > 0)
        }
    }
}
