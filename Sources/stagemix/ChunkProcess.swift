import Foundation
import StageMixPipeline

/// Runs each chunk of a chunked `compose` as `stagemix compose-chunk JOB` (and the session's audio as
/// `stagemix compose-chunk --audio JOB`), a child process of this one: a process per chunk, so that each x264 is as alone as in a whole run, a chunk's CPU is its
/// process's, and what runs a chunk here is what a queue worker will run on another machine.
struct ChunkProcess: ChunkRunner {
    /// This executable.
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    func run(job: URL, shouldStop: @escaping @Sendable () -> Bool) throws {
        try run(["compose-chunk", job.path], job: job, shouldStop: shouldStop)
    }

    func run(audioJob: URL, shouldStop: @escaping @Sendable () -> Bool) throws {
        try run(["compose-chunk", "--audio", audioJob.path], job: audioJob, shouldStop: shouldStop)
    }

    private func run(_ arguments: [String], job: URL, shouldStop: @escaping @Sendable () -> Bool) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Its messages go into the error if it fails: through a pipe, not a file a full disk would keep empty.
        let messages = ChildMessages()
        process.standardError = messages.pipe
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            _ = messages.text()
            throw error
        }
        var stopped = false
        while process.isRunning {
            if !stopped, shouldStop() {
                process.terminate()
                stopped = true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
        let said = messages.text()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ChunkFailure(job: job.lastPathComponent, status: process.terminationStatus,
                               signalled: process.terminationReason == .uncaughtSignal, message: said)
        }
    }
}
