/// Where a compose job is in its life. `failed` means "failed, will retry after a back-off";
/// `dead` means "failed for good" (bad input, or out of attempts).
public enum JobState: String, Sendable, Codable, CaseIterable {
    case queued
    case running
    case succeeded
    case failed
    case cancelled
    case dead

    /// States in which a job is still on its way; enqueueing the same spec again returns it.
    public static let active: [JobState] = [.queued, .running, .failed]

    public var isFinal: Bool {
        switch self {
        case .succeeded, .cancelled, .dead: true
        case .queued, .running, .failed: false
        }
    }
}
