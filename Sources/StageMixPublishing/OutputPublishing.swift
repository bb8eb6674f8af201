public import Foundation

/// What a destination (``OutputDestination``) gives a composition to publish through: the output is
/// written whole into a local staging folder, then put in place in one step, so a reader sees the
/// earlier output or the new one and never a half, and nothing StageMix did not write is replaced.
/// A local folder is ``FolderPublisher``; another kind of destination is another conformer.
public protocol OutputPublishing: Sendable {
    /// Throws ``OutputRefusal`` if publishing could destroy something StageMix did not write.
    func check() throws
    /// Removes what processes that are gone left for this destination.
    func sweepLeftovers()
    /// A staging path for this process, not yet created: where a compose child writes.
    func stagingPath() -> URL
    /// Creates a new staging folder.
    func makeStaging() throws -> URL
    /// Checks again and puts `staging` in place of the destination's output.
    func publish(_ staging: URL) throws
    /// Removes a staging folder after a failure or a cancellation.
    func discard(_ staging: URL)
    /// True when the destination already holds this publisher's job's whole output (its marker names the
    /// job): an earlier attempt published it, then died before the queue heard. What that run left beside
    /// the output (a bucket's partial note, once its run is gone) is removed. False without a job.
    func isPublishedByJob() throws -> Bool
}

extension OutputPublishing {
    /// The one sequence every whole output goes through (`compose`, `synth`): check the destination,
    /// sweep what dead processes left for it, make a staging folder, let `write` fill it, and publish
    /// it whole. On any failure the staging folder is removed and the destination is as it was.
    public func publishStaged<T>(_ write: (URL) throws -> T) throws -> T {
        try check()
        sweepLeftovers()
        let staging = try makeStaging()
        do {
            let result = try write(staging)
            try publish(staging)
            return result
        } catch {
            discard(staging)
            throw error
        }
    }
}
