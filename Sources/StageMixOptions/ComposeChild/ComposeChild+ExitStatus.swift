extension ComposeChild {
    /// How a `stagemix` command ends, in the numbers of BSD's sysexits.h, and 128 + the signal when a
    /// stop signal ended it. Every place that exits with one names it here.
    public struct ExitStatus: RawRepresentable, Sendable, Hashable {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let success = ExitStatus(rawValue: 0)
        /// An option's value is wrong (EX_USAGE); what argument parsing exits with too.
        public static let usageError = ExitStatus(rawValue: 64)
        /// The capture, layout, tables or edits are wrong, or `--out` is not StageMix's to replace (EX_DATAERR).
        public static let badInput = ExitStatus(rawValue: 65)
        /// The output's file system had no room for what the run needed (EX_CANTCREAT): refused before
        /// anything was decoded or written, unless `--no-space-check` (docs/limits.md, "A full disk").
        public static let noRoom = ExitStatus(rawValue: 73)
        /// A write failed because its file system was full or its quota spent (EX_IOERR): the run stopped
        /// at once and removed what it had written; the same command succeeds once there is room.
        public static let noSpaceLeft = ExitStatus(rawValue: 74)
        /// The object store could not be reached, or kept failing, after the retries (EX_TEMPFAIL): the
        /// same command may well succeed later, and a queue tries the job again.
        public static let temporaryFailure = ExitStatus(rawValue: 75)
        /// Anything else that went wrong (EX_SOFTWARE).
        public static let internalFailure = ExitStatus(rawValue: 70)
        /// Stopped by SIGINT (130).
        public static let interrupted = stopped(bySignal: 2)
        /// Stopped by SIGTERM (143).
        public static let terminated = stopped(bySignal: 15)

        /// The status of a process that stopped because of signal `signal`, as a shell reports it.
        public static func stopped(bySignal signal: Int32) -> ExitStatus {
            ExitStatus(rawValue: 128 + signal)
        }
    }
}
