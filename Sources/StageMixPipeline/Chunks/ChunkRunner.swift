public import Foundation

/// Runs one chunk's job, written at a path, to its end: on this machine, `stagemix compose-chunk JOB`
/// in a child process. Throws if the chunk failed; stops it soon after `shouldStop` says so.
public protocol ChunkRunner: Sendable {
    func run(job: URL, shouldStop: @escaping @Sendable () -> Bool) throws
}
