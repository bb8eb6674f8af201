/// Why StageMix will not write an output where it was asked to: input the user can fix (exit 65).
public struct OutputRefusal: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The output would be the capture, inside it, or hold it.
        case overlapsCapture
        /// A regular file, a symbolic link or some other non-folder is there.
        case notAFolder
        /// A folder with files StageMix did not write.
        case foreignFolder
        /// An earlier StageMix output, and `--overwrite` was not given.
        case earlierOutput
        /// A destination of a kind StageMix cannot write (a URL scheme it does not know).
        case unsupportedDestination
    }

    public var reason: Reason
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
