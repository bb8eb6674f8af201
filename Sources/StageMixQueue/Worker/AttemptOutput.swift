import Foundation
import StageMixPublishing

/// Where one attempt writes, and how its result is published. The compose child writes to a
/// staging name of this worker's beside the final folder (`.<out>.stagemix-<worker pid>-…`); the
/// worker publishes it over `<out>` through the same ``FolderPublisher`` `compose` uses, only while
/// the attempt still holds its lease. Readers of `<out>` see the previous whole output or the new
/// one, never a half, and nothing StageMix did not write is ever replaced.
///
/// An output in a bucket is staged in a local folder the same way and uploaded by its publisher
/// (``BucketPublisher``) once the child has finished.
struct AttemptOutput: Sendable {
    let final: OutputDestination
    let attemptDirectory: URL
    private let publisher: any OutputPublishing

    init(spec: JobSpec, lease: JobLease) {
        final = (try? spec.destination) ?? .folder(URL(fileURLWithPath: spec.out))
        let capture = spec.capture.contains("://") ? URL(string: spec.capture) : URL(fileURLWithPath: spec.capture)
        publisher = final.publisher(overwrite: spec.options.overwrite ?? false, job: lease.jobID, protecting: capture.map { [$0] } ?? [])
        attemptDirectory = publisher.stagingPath()
    }

    /// Removes this attempt's folder and whatever dead processes left for this output (a killed
    /// worker's staging, a killed child's), never a live process's.
    func removeAttemptLeftovers() {
        try? FileManager.default.removeItem(at: attemptDirectory)
        publisher.sweepLeftovers()
    }

    /// Refuses an output the job may not replace (bad input: the job is not retried), then sweeps.
    func prepare() throws {
        try publisher.check()
        if let folder = final.folder {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        publisher.sweepLeftovers()
    }

    /// True when an earlier attempt of this job published its output (and died before the queue heard).
    func isPublished() throws -> Bool {
        try publisher.isPublishedByJob()
    }

    /// Moves the attempt's folder to the final path, replacing an earlier output if it may.
    func publish() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: attemptDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw QueueError(.corruptRow, "compose exited 0 but wrote no directory at \(attemptDirectory.path)")
        }
        try publisher.publish(attemptDirectory)
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
