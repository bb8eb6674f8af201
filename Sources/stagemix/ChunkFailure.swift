/// A chunk's process that did not succeed: its exit status (a stop signal's, or compose's own
/// codes) and what it said.
struct ChunkFailure: Error, CustomStringConvertible {
    var job: String
    var status: Int32
    var signalled: Bool
    var message: String

    var description: String {
        "chunk \(job) \(signalled ? "killed by signal \(status)" : "exited \(status)")\(message.isEmpty ? "" : ": \(message)")"
    }
}
