import Foundation
import StageMixMedia

/// Reads one rendition's video of one chunk back at the join, packet by packet in decoding order,
/// restamped as the whole run's encoder stamps them, in one tick a frame: presentation times as
/// encoded, decoding times `delay` frames before the decoding order, every packet one frame long.
final class ChunkVideoReader {
    let stream: StreamInfo
    private let demuxer: Demuxer
    private let location: String
    private let ticksPerFrame: Int64
    /// One tick a frame, as the encoder counts.
    let timeBase: Rational
    /// What the container added to the presentation times: its first (an IDR frame's) less the chunk's first frame.
    private var offset: Int64?
    private let firstFrame: Int

    /// `firstFrame` is the chunk's first frame in this rendition's frames, at `fps`.
    init(url: URL, firstFrame: Int, fps: Int) throws(MediaError) {
        demuxer = try Demuxer(url: url)
        location = url.lastPathComponent
        guard let video = demuxer.firstStream(ofType: .video) else { throw MediaError(.invalidData, "\(location): no video stream") }
        stream = video
        let ticks = 1 / (Double(fps) * video.timeBase.doubleValue)
        guard ticks >= 1, abs(ticks - ticks.rounded()) < 1e-6 else {
            throw MediaError(.invalidData, "\(location): time base \(video.timeBase) does not count whole frames at \(fps) fps")
        }
        ticksPerFrame = Int64(ticks.rounded())
        timeBase = Rational(1, Int32(fps))
        self.firstFrame = firstFrame
    }

    /// The packet decoded `decodeIndex`-th in the whole output (the rendition's frames before it).
    func next(decodeIndex: Int, delay: Int) throws(MediaError) -> Packet {
        guard let packet = try nextVideoPacket(), let pts = packet.pts else {
            throw MediaError(.invalidData, "\(location): ends before frame \(decodeIndex)")
        }
        if offset == nil {
            guard packet.isKeyframe else { throw MediaError(.invalidData, "\(location): does not start with a keyframe") }
            offset = pts - Int64(firstFrame) * ticksPerFrame
        }
        let frame = (pts - (offset ?? 0)) / ticksPerFrame
        return try packet.restamped(pts: frame, dts: Int64(decodeIndex - delay), duration: 1, timeBase: timeBase)
    }

    /// Throws unless every packet has been read: a chunk holds exactly its own frames.
    func checkEnd() throws(MediaError) {
        if try nextVideoPacket() != nil { throw MediaError(.invalidData, "\(location): holds more packets than its frames") }
    }

    private func nextVideoPacket() throws(MediaError) -> Packet? {
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == stream.index { return packet }
        }
        return nil
    }
}
