import Foundation

/// Where one attempt writes, and how its result is published. The child writes to
/// `<out>.attempt-<job>-<n>.tmp` beside the final directory; the worker renames it over
/// `<out>` only while the attempt still holds its lease, so readers of `<out>` see either the
/// previous whole output or the new whole output, never a half.
struct AttemptOutput: Sendable {
    let final: URL
    let attemptDirectory: URL
    private let prefix: String

    init(out: String, lease: JobLease) {
        final = URL(fileURLWithPath: out)
        prefix = "\(final.lastPathComponent).attempt-\(lease.jobID)-"
        attemptDirectory = final.deletingLastPathComponent().appendingPathComponent("\(prefix)\(lease.attempt).tmp")
    }

    /// Removes what any attempt of this job left beside the output (a killed worker's temp dir,
    /// the child's own temp dirs), so a rescued job never leaves half an output behind.
    func removeAttemptLeftovers() {
        let parent = final.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    func prepare() throws {
        try FileManager.default.createDirectory(at: final.deletingLastPathComponent(), withIntermediateDirectories: true)
        removeAttemptLeftovers()
    }

    /// Moves the attempt's directory to the final path, replacing an older output if there is one.
    func publish() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: attemptDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw QueueError(.corruptRow, "compose exited 0 but wrote no directory at \(attemptDirectory.path)")
        }
        let replaced = final.deletingLastPathComponent().appendingPathComponent("\(prefix)replaced.tmp")
        if FileManager.default.fileExists(atPath: final.path) {
            try? FileManager.default.removeItem(at: replaced)
            try rename(final, replaced)
        }
        try rename(attemptDirectory, final)
        try? FileManager.default.removeItem(at: replaced)
    }

    private func rename(_ from: URL, _ to: URL) throws {
        guard Foundation.rename(from.path, to.path) == 0 else {
            let code = errno
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [
                NSLocalizedDescriptionKey: "rename \(from.path) -> \(to.path): \(String(cString: strerror(code)))",
            ])
        }
    }
}

extension AttemptOutput {
    /// Removing a partial output can mean deleting many segment files: do it on a thread of
    /// its own, not on the cooperative pool.
    static func onFileThread<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}
