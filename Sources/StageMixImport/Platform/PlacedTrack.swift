import Foundation
import StageMixCapture

/// One track of a platform's session placed on the wall clock: whose it is, what it carries, where its
/// first sample falls and when it is published (Unix milliseconds), and where its file is.
struct PlacedTrack: Sendable {
    /// Where the track's file comes from.
    enum Media: Sendable {
        /// A platform's file, linked (or with `--copy-media` copied) into the capture.
        case linked(URL)
        /// A file the importer wrote into the staging folder itself.
        case written
        /// Named but not there (missing, empty, unplayable): composing reports the track as lost media.
        case lost
    }

    /// The id wanted; ``PlatformSession`` makes it unique (`id#2`) when a platform's track comes in pieces.
    var id: String
    var participantId: String
    var source: TrackSource
    /// Capture-relative path (`media/...`).
    var file: String
    var media: Media
    /// The instant of the file's first sample (the contract's `startOffsetMs`, on the wall clock).
    var mediaStartMs: Int64
    /// Published from `fromMs` to `toMs`.
    var fromMs: Int64
    var toMs: Int64
    /// A video track's nominal size; 1280x720 when nothing says it.
    var width: Int?
    var height: Int?
    /// Muted intervals inside the published one.
    var mutes: [ClosedRange<Int64>] = []

    var kind: TrackKind { source.kind }
}

extension TrackSource {
    /// Audio or video, as the contract pairs them.
    var kind: TrackKind {
        switch self {
        case .camera, .screenShare: .video
        case .microphone, .screenShareAudio: .audio
        }
    }
}
