import Foundation
import StageMixPipeline

/// Runs each chunk of a chunked `compose` as `stagemix compose-chunk JOB`, a child process of this
/// one: a process per chunk, so that each x264 is as alone as in a whole run, a chunk's CPU is its
/// process's, and what runs a chunk here is what a queue worker will run on another machine.
struct ChunkProcess: ChunkRunner {
    /// This executable.
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()

    func run(job: URL, shouldStop: @escaping @Sendable () -> Bool) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["compose-chunk", job.path]
        // Its messages go beside its job, in the staging folder, and into the error if it fails.
        let log = job.deletingPathExtension().appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardError = logHandle
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var stopped = false
        while process.isRunning {
            if !stopped, shouldStop() {
                process.terminate()
                stopped = true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: log, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            throw ChunkFailure(job: job.lastPathComponent, status: process.terminationStatus,
                               signalled: process.terminationReason == .uncaughtSignal, message: said)
        }
    }
}
