extension ComposeChild {
    /// What a failed attempt was, as the worker records it: its words begin the job's error, and it
    /// says whether trying the same job again can help.
    public enum Failure: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Compose refused an option's value (exit 64).
        case usageError = "usage error"
        /// Compose refused the input or the output folder (exit 65), or the worker did before running it.
        case badInput = "bad input"
        /// A write met a full disk (exit 74): tried again once there is room. The job's error is compose's
        /// own line, which begins with these words and names the file.
        case noSpaceLeft = "no space left on device"
        /// Compose refused before starting: the output's file system clearly had too little room (exit 73).
        case notEnoughSpace = "not enough space on device"
        /// Any other exit, or a signal: a passing fault, perhaps.
        case composeFailed = "compose failed"

        /// The failure of a child that exited with `status`; nil when it succeeded.
        public init?(exitStatus status: ExitStatus) {
            switch status {
            case .success: return nil
            case .usageError: self = .usageError
            case .badInput: self = .badInput
            case .noSpaceLeft: self = .noSpaceLeft
            case .noRoom: self = .notEnoughSpace
            default: self = .composeFailed
            }
        }

        /// The failure a recorded error begins with, if it begins with one.
        public init?(error: String) {
            guard let kind = Self.allCases.first(where: { error.hasPrefix($0.rawValue) }) else { return nil }
            self = kind
        }

        /// False for a usage error or bad input: they fail the same way however often they are tried.
        /// A full disk is retried too, with back-off: the machine's fault, not the job's.
        public var isRetryable: Bool { self != .usageError && self != .badInput }

        /// A full disk, found or foreseen: compose's own line says it (naming the file or folder), and the
        /// queue retries it with back-off however many attempts it has taken, never giving the job up as
        /// dead for it (docs/queue.md, "A full disk").
        public var isFullDisk: Bool { self == .noSpaceLeft || self == .notEnoughSpace }

        public var description: String { rawValue }
    }
}
