import Foundation
import StageMixMedia
import StageMixTime

/// What an importer reads of a media file's header: the first picture's size (the layer's nominal
/// size, when the platform's log does not say it) and the first timestamp (platforms write the time
/// since the room started there). Nil when the file cannot be opened or has no stream of the kind.
struct MediaHeader {
    var width: Int?
    var height: Int?
    /// The stream's first presentation time, in milliseconds.
    var firstMs: Int

    init?(_ file: URL, kind: MediaType) {
        guard let demuxer = try? Demuxer(url: file), let stream = demuxer.firstStream(ofType: kind) else { return nil }
        if kind == .video, stream.width > 0, stream.height > 0 {
            width = stream.width
            height = stream.height
        }
        firstMs = MediaTime.ms(seconds: Double(stream.startTime ?? 0) * stream.timeBase.doubleValue)
    }
}
