public import Foundation

/// Runs one chunk's job, written at a path, to its end: on this machine, `stagemix compose-chunk JOB`
/// in a child process. Throws if the chunk failed; stops it soon after `shouldStop` says so.
public protocol ChunkRunner: Sendable {
    func run(job: URL, shouldStop: @escaping @Sendable () -> Bool) throws
    /// Runs the session's audio work (a ``SessionAudioJob`` written at `audioJob`) as a chunk is run:
    /// on this machine, `stagemix compose-chunk --audio JOB`.
    func run(audioJob: URL, shouldStop: @escaping @Sendable () -> Bool) throws
}
