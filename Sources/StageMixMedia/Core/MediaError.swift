internal import CFFmpeg
public import Foundation
public import StageMixStorage

/// An error from a media operation: a stable `code` to match on and a
/// human-readable `message` naming the file or codec and FFmpeg's own text.
public struct MediaError: Error, Sendable, CustomStringConvertible, NoSpaceReporting {
    /// What kind of failure happened; compare against the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        public static let openFailed = Code("openFailed")
        public static let endOfFile = Code("endOfFile")
        public static let unsupportedCodec = Code("unsupportedCodec")
        public static let invalidArgument = Code("invalidArgument")
        public static let invalidData = Code("invalidData")
        public static let decodeFailed = Code("decodeFailed")
        public static let encodeFailed = Code("encodeFailed")
        public static let muxFailed = Code("muxFailed")
        public static let seekFailed = Code("seekFailed")
        public static let outOfMemory = Code("outOfMemory")
        /// No file at the path.
        public static let notFound = Code("notFound")
        /// A FIFO, device, socket or directory where a media file should be: never opened.
        public static let notRegularFile = Code("notRegularFile")
        /// An open, read or seek passed its deadline (`MediaLimits`).
        public static let timedOut = Code("timedOut")
        /// A picture larger than `MediaLimits` allow.
        public static let tooLarge = Code("tooLarge")
        /// The object store failed a read after its retries: the media may be fine, the store was not.
        public static let storageFailed = Code("storageFailed")
        /// A file being written could not be: a write, open or close of an output failed.
        public static let writeFailed = Code("writeFailed")
    }

    public let code: Code
    public let message: String
    /// The FFmpeg (negative AVERROR) or libopus return value, when there was one.
    public let underlyingCode: Int32?
    /// The file the operation was for, when it wrote one.
    public let path: String?

    public init(_ code: Code, _ message: String, underlyingCode: Int32? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.underlyingCode = underlyingCode
        self.path = path
    }

    /// The full disk this error reports: a write to `path` that failed with ENOSPC or EDQUOT.
    public var noSpaceLeft: NoSpaceLeft? {
        guard let path, let underlyingCode, underlyingCode < 0, NoSpaceLeft.means(errno: -underlyingCode) else { return nil }
        return NoSpaceLeft(path: path, code: -underlyingCode)
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: MediaError, rhs: Code) -> Bool { lhs.code == rhs }
}

extension MediaError {
    /// Builds an error from an FFmpeg return value, appending av_strerror's text.
    static func ffmpeg(_ code: Code, _ context: String, _ averror: Int32, path: String? = nil) -> MediaError {
        MediaError(code, "\(context): \(ffmpegErrorText(averror))", underlyingCode: averror, path: path)
    }

    /// A file StageMix wrote itself (a playlist) that Foundation could not write: a full disk stays one,
    /// naming the file, rather than becoming an internal error.
    public static func writing(_ url: URL, _ error: any Error) -> MediaError {
        if let full = NoSpaceLeft(error, path: url.path) {
            return MediaError(.writeFailed, "cannot write '\(full.path)': \(full)", underlyingCode: -full.code, path: full.path)
        }
        return MediaError(.muxFailed, "cannot write '\(url.path)': \(error.localizedDescription)")
    }

    static func outOfMemory(_ what: String) -> MediaError {
        MediaError(.outOfMemory, "cannot allocate \(what)")
    }
}

/// FFmpeg's description of an AVERROR value (av_strerror).
func ffmpegErrorText(_ averror: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    return buffer.withUnsafeMutableBufferPointer { buf in
        _ = cff_av_err2str(averror, buf.baseAddress, buf.count)
        return String(cString: buf.baseAddress!)
    }
}

/// Throws a MediaError when an FFmpeg call returned a negative value; passes the value through otherwise.
@discardableResult
func ffCheck(_ ret: Int32, _ code: MediaError.Code, _ context: @autoclosure () -> String) throws(MediaError) -> Int32 {
    if ret < 0 { throw MediaError.ffmpeg(code, context(), ret) }
    return ret
}
