import StageMixCapture

/// One recording made into a media file of the capture, as the room's assembly needs it: whose it
/// is, what it holds and where on the real-time clock its first sample lies.
struct JanusTrackMedia: Sendable, Equatable {
    /// The `.mjr` it was made from, for messages.
    var recording: String
    var publisherId: String
    /// When Janus made the recorder (the header's `s`), real-time microseconds.
    var createdUs: Int64
    var kind: TrackKind
    /// Capture-relative path of the media file.
    var file: String
    /// Real time of the file's first sample, microseconds (the header's `u` plus RTP time).
    var firstSampleUs: Int64
    var durationMs: Int
    var width: Int?
    var height: Int?

    var endUs: Int64 { firstSampleUs + Int64(durationMs) * 1000 }
}
