import StageMixOptions

/// A chunk's process that did not succeed: its exit status (a stop signal's, or compose's own
/// codes) and what it said.
struct ChunkFailure: Error, CustomStringConvertible {
    var job: String
    var status: Int32
    var signalled: Bool
    var message: String

    /// The line compose prints for it: a full disk in the chunk's own words, which begin as compose's own
    /// do and name the file (a worker's job keeps them as its last error); anything else as the chunk's failure.
    var line: String {
        let fullDisk = ComposeChild.Failure(exitStatus: ComposeChild.ExitStatus(rawValue: status))?.isFullDisk == true
        return fullDisk && !signalled && message.hasPrefix("stagemix: ") ? message : "stagemix: \(self)"
    }

    var description: String {
        "chunk \(job) \(signalled ? "killed by signal \(status)" : "exited \(status)")\(message.isEmpty ? "" : ": \(message)")"
    }
}
