import StageMixStorage

extension AttemptRun {
    /// The job's error for what the worker itself failed to do (`doing`): a full disk in the words
    /// compose uses for one, naming the file, so that the job is retried past its attempts as compose's
    /// full disk is (docs/queue.md, "A full disk"); anything else after what was being done.
    static func failure(_ doing: String, _ error: any Error, at path: String? = nil) -> String {
        if let full = NoSpaceLeft(error, path: path) { return "\(full) (\(doing))" }
        return "\(doing): \(error)"
    }
}
