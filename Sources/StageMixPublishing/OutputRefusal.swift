/// Why StageMix will not write an output where it was asked to: input the user can fix (exit 65), or,
/// while another run is writing there (``Reason/busy``), a temporary failure (exit 75).
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
        /// Another StageMix run is writing an output there now (exit 75: try again later).
        case busy
        /// Another StageMix run published an output there after this one started, and `--overwrite`
        /// was not given: this run's output was not published, the other's is left as it is.
        case publishedMeanwhile
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

    /// Another run published an output at `destination` (a path or `s3://` URL, as the user gave it)
    /// after this one first looked: this run's output is dropped, the other's left as it is.
    public static func publishedMeanwhile(at destination: String) -> OutputRefusal {
        OutputRefusal(.publishedMeanwhile, "--out \(destination): another StageMix run published an output there while this one was composing; "
            + "it was left as it is and this run's output was not published. Pass --overwrite to replace it")
    }

    /// Will the same request succeed later without the user changing anything? Only while another
    /// run writes the destination: once it is done, the destination is free, or holds its output.
    public var isTemporary: Bool { reason == .busy }
}
