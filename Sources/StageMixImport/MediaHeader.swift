import Foundation
import StageMixMedia
import StageMixTime

/// What an importer reads of a media file's header: the first picture's size (the layer's nominal
/// size, when the platform's log does not say it) and the first timestamp (platforms write the time
/// since the room started there); and, when asked, where the stream's media really ends. Nil when the
/// file cannot be opened or has no stream of the kind.
struct MediaHeader {
    var width: Int?
    var height: Int?
    /// The stream's first presentation time, in milliseconds.
    var firstMs: Int
    /// The end of the stream's last sample, in milliseconds on the file's timestamps (its last packet's
    /// time plus its duration: a video frame's at least its frame interval, an audio packet's less what
    /// the container trims); nil unless asked for, or when the file holds no packet of the stream.
    var endMs: Int?
    /// Stretches longer than asked for with no sample of the stream between its first and its end, on
    /// the file's timestamps in milliseconds (a WebRTC recording's mutes: its sender sent nothing).
    var gaps: [Range<Int>] = []

    /// With `readingToEnd`, every packet of the file is read (not decoded) to find where it ends:
    /// a container's duration is not always written, nor always exact. With `gapsOverMs` as well,
    /// the stretches without a sample longer than that are noted in ``gaps``.
    init?(_ file: URL, kind: MediaType, readingToEnd: Bool = false, gapsOverMs: Int? = nil) {
        guard let demuxer = try? Demuxer(url: file), let stream = demuxer.firstStream(ofType: kind) else { return nil }
        if kind == .video, stream.width > 0, stream.height > 0 {
            width = stream.width
            height = stream.height
        }
        firstMs = MediaTime.ms(seconds: Double(stream.startTime ?? 0) * stream.timeBase.doubleValue)
        if readingToEnd { (endMs, gaps) = Self.end(of: stream, in: demuxer, gapsOverMs: gapsOverMs) }
    }

    /// The latest end of a packet of `stream`, as far as the file reads (damage ends the reading there),
    /// and the gaps longer than `gapsOverMs` between one packet's end and the next packet.
    private static func end(of stream: StreamInfo, in demuxer: Demuxer, gapsOverMs: Int?) -> (Int?, [Range<Int>]) {
        let frameSeconds = stream.frameRate.map { $0.doubleValue > 0 ? 1 / $0.doubleValue : 0 } ?? 0
        var end: Double?
        var gaps: [Range<Int>] = []
        while let packet = try? demuxer.readPacket() {
            guard packet.streamIndex == stream.index, let pts = packet.ptsSeconds else { continue }
            let tick = packet.timeBase.doubleValue
            var duration = Double(packet.duration) * tick
            // A video frame lasts its frame interval where the container wrote none (Matroska's SimpleBlock)
            // or cut it to its ticks (66 ms for a 15 fps frame in Matroska's milliseconds).
            if stream.mediaType == .video, frameSeconds > duration, packet.duration == 0 || frameSeconds - duration < tick {
                duration = frameSeconds
            }
            var seconds = pts + duration
            if stream.sampleRate > 0 { seconds -= Double(packet.skipSamples.end) / Double(stream.sampleRate) }
            if let gapsOverMs, let last = end, (pts - last) * 1_000 > Double(gapsOverMs) { gaps.append(ms(last)..<ms(pts)) }
            end = max(end ?? seconds, seconds)
        }
        return (end.map(ms), gaps)
    }

    /// To the nearest millisecond, a half (and a microsecond of the sum's rounding) down.
    private static func ms(_ seconds: Double) -> Int { Int((seconds * 1_000 - 0.001).rounded()) }
}
