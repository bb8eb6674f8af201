internal import CFFmpeg

/// The deadline and error count FFmpeg's callbacks see for one demuxer or decoder (a CFFMediaWatch):
/// libavformat's interrupt callback gives up a blocking open or read once the deadline has passed, and
/// the log callback counts the errors FFmpeg logs for the watched context, since some damage (a dropped
/// Ogg page, a concealed H.264 slice) is only ever logged, never returned.
final class MediaWatch: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CFFMediaWatch>

    /// The log callback is process-wide; installing it once is enough.
    private static let installLog: Void = cff_install_watching_log()

    init() {
        _ = Self.installLog
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: CFFMediaWatch(deadline: .max, errors: 0))
    }

    deinit { pointer.deallocate() }

    /// Gives the next blocking operation `seconds` from now (reads the monotonic clock; no syscall).
    func arm(seconds: Double) {
        pointer.pointee.deadline = av_gettime_relative() + Int64(seconds * 1_000_000)
    }

    /// No deadline, for work between reads.
    func disarm() { pointer.pointee.deadline = .max }

    /// Errors FFmpeg has logged for the watched context so far.
    var errors: Int { Int(cff_watch_errors(pointer)) }

    var opaque: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
}
