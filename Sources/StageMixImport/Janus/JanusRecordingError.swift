public import Foundation
public import StageMixStorage

/// A Janus recording (`.mjr`) that cannot be converted: which file, why, and a code to match on.
public struct JanusRecordingError: Error, Sendable, CustomStringConvertible, NoSpaceReporting {
    /// What kind of failure; compare against the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// Not an `MJR00002` file, or a header that is not the JSON Janus writes.
        public static let notARecording = Code("notARecording")
        /// A codec or medium this converter does not read (G.711, G.722, AV1, H.265, data channels).
        public static let unsupportedCodec = Code("unsupportedCodec")
        /// The recorder was opened but no packet ever arrived: no header, or a header and nothing after it.
        public static let neverGotMedia = Code("neverGotMedia")
        /// The file could not be read, or the media file could not be written.
        public static let ioFailed = Code("ioFailed")
    }

    public let code: Code
    /// The `.mjr` file.
    public let file: URL
    public let message: String
    /// The full disk the media file met, when that is why it could not be written: the import stops
    /// there, rather than leave the recording out.
    public let noSpaceLeft: NoSpaceLeft?

    public init(_ code: Code, file: URL, _ message: String, noSpaceLeft: NoSpaceLeft? = nil) {
        self.code = code
        self.file = file
        self.message = message
        self.noSpaceLeft = noSpaceLeft
    }

    public var description: String { "\(file.lastPathComponent): \(message)" }

    public static func == (lhs: JanusRecordingError, rhs: Code) -> Bool { lhs.code == rhs }
}
