internal import CFFmpeg

/// How chatty FFmpeg's own logging on stderr is.
public enum MediaLog {
    public enum Level: Sendable { case quiet, error, warning, info }

    public static func setLevel(_ level: Level) {
        switch level {
        case .quiet: av_log_set_level(AV_LOG_QUIET)
        case .error: av_log_set_level(AV_LOG_ERROR)
        case .warning: av_log_set_level(AV_LOG_WARNING)
        case .info: av_log_set_level(AV_LOG_INFO)
        }
    }
}
