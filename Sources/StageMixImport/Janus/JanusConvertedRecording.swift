public import Foundation

/// One Janus recording turned into a media file a capture can reference, with where its first sample
/// sits in real time and what could not be rebuilt.
public struct JanusConvertedRecording: Sendable {
    /// The `.mjr` read.
    public var source: URL
    public var header: MJRHeader
    /// The media file written (`.mka` for Opus, `.webm` for VP8/VP9, `.ts` for H.264); nil when no sample could be written.
    public var file: URL?
    /// Real time (the clock of the header's `u`) of the file's first sample:
    /// `u` + (its RTP time − the first packet's RTP time).
    public var firstSampleUs: Int64
    /// From the first sample to the end of the last, in media time.
    public var durationMs: Int
    /// Video: the largest picture seen in the bitstream (VP8/VP9 keyframe headers, H.264 SPS).
    public var width: Int?
    public var height: Int?
    /// Stretches that could not be rebuilt, in real time.
    public var losses: [JanusLoss]
    /// What went wrong without stopping the conversion; each names the `.mjr` file.
    public var warnings: [String]

    public init(source: URL, header: MJRHeader, file: URL?, firstSampleUs: Int64, durationMs: Int,
                width: Int?, height: Int?, losses: [JanusLoss], warnings: [String]) {
        self.source = source
        self.header = header
        self.file = file
        self.firstSampleUs = firstSampleUs
        self.durationMs = durationMs
        self.width = width
        self.height = height
        self.losses = losses
        self.warnings = warnings
    }
}
