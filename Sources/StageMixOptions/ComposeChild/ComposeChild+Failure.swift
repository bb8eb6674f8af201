extension ComposeChild {
    /// What a failed attempt was, as the worker records it: its words begin the job's error, and it
    /// says whether trying the same job again can help.
    public enum Failure: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Compose refused an option's value (exit 64).
        case usageError = "usage error"
        /// Compose refused the input or the output folder (exit 65), or the worker did before running it.
        case badInput = "bad input"
        /// Any other exit, or a signal: a passing fault, perhaps.
        case composeFailed = "compose failed"

        /// The failure of a child that exited with `status`; nil when it succeeded.
        public init?(exitStatus status: ExitStatus) {
            switch status {
            case .success: return nil
            case .usageError: self = .usageError
            case .badInput: self = .badInput
            default: self = .composeFailed
            }
        }

        /// The failure a recorded error begins with, if it begins with one.
        public init?(error: String) {
            guard let kind = Self.allCases.first(where: { error.hasPrefix($0.rawValue) }) else { return nil }
            self = kind
        }

        /// False for a usage error or bad input: they fail the same way however often they are tried.
        public var isRetryable: Bool { self == .composeFailed }

        public var description: String { rawValue }
    }
}
