import Foundation
import StageMixMedia

/// Reads one simulcast layer file and hands out the picture showing at a session time.
///
/// A sample at presentation time `pts` (file's first `pts0`) happens at session time
/// `startOffset + (pts - pts0)`. Decoding only moves forward; a jump ahead seeks.
final class LayerReader {
    let file: String
    private let demuxer: Demuxer
    private let stream: StreamInfo
    private let decoder: VideoDecoder
    private let startOffset: Double
    private let firstPts: Double
    private var lookahead: VideoFrame?
    private var inputDone = false
    private var decoderDrained = false
    /// The latest frame at or before the last requested time.
    private(set) var current: VideoFrame?
    /// Where decoding stands: the last decoded frame's time, or the last seek target.
    private var position = -Double.infinity

    /// How far ahead a request must jump to seek instead of decoding through.
    static let seekThreshold = 1.0

    private let counter: DecodeCounter

    init(url: URL, file: String, startOffsetSeconds: Double, counter: DecodeCounter, threadCount: Int = 1) throws(MediaError) {
        self.file = file
        self.counter = counter
        demuxer = try Demuxer(url: url)
        guard let video = demuxer.firstStream(ofType: .video) else {
            throw MediaError(.invalidData, "'\(url.path)' has no video stream")
        }
        stream = video
        decoder = try VideoDecoder(stream: video, threadCount: threadCount)
        startOffset = startOffsetSeconds
        firstPts = Double(video.startTime ?? 0) * video.timeBase.doubleValue
    }

    /// Session time of a frame.
    func sessionTime(of frame: VideoFrame) -> Double {
        startOffset + ((frame.seconds ?? 0) - firstPts)
    }

    /// Session time of a packet of this layer's stream.
    private func sessionTime(ofPacket packet: Packet) -> Double? {
        packet.ptsSeconds.map { startOffset + ($0 - firstPts) }
    }

    /// The picture showing at session time `t`: the latest frame at or before it.
    func frame(at t: Double) throws(MediaError) -> VideoFrame? {
        let epsilon = 0.0005
        // Past the end nothing lies ahead to seek to: keep showing the last picture.
        if !decoderDrained, t - position > Self.seekThreshold { try seek(to: t) }
        while true {
            if lookahead == nil { lookahead = try decodeNext() }
            guard let next = lookahead else { break }
            let time = sessionTime(of: next)
            guard time <= t + epsilon else { break }
            current = next
            position = max(position, time)
            lookahead = nil
        }
        return current
    }

    /// Positions the decoder at the keyframe at or before session time `t`.
    func seek(to t: Double) throws(MediaError) {
        let mediaTime = max(0, t - startOffset + firstPts)
        try demuxer.seek(toSeconds: mediaTime, streamIndex: stream.index)
        decoder.reset()
        lookahead = nil
        inputDone = false
        decoderDrained = false
        position = t
    }

    /// The session time of the first keyframe at or after `t`, leaving the reader positioned on it;
    /// nil when the file has none (the caller keeps its old layer).
    func positionAtKeyframe(atOrAfter t: Double) throws(MediaError) -> Double? {
        try seek(to: t)
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream.index, packet.isKeyframe, let time = sessionTime(ofPacket: packet),
                  time >= t - 0.0005 else { continue }
            try seek(to: time)
            return time
        }
        return nil
    }

    private func decodeNext() throws(MediaError) -> VideoFrame? {
        while !decoderDrained {
            switch try decoder.receive() {
            case .frame(let frame):
                counter.count(file)
                return frame
            case .endOfStream:
                decoderDrained = true
            case .needsInput:
                if inputDone { decoderDrained = true; break }
                if let packet = try nextPacket() {
                    try decoder.send(packet)
                } else {
                    inputDone = true
                    try decoder.send(nil)
                }
            }
        }
        return nil
    }

    private func nextPacket() throws(MediaError) -> Packet? {
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == stream.index { return packet }
        }
        return nil
    }
}
