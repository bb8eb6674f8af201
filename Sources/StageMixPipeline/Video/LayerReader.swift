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
    /// The keyframe a seek landed on, read to check where it landed: the first packet to decode.
    private var pending: Packet?
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

    /// Positions the decoder at the keyframe at or before session time `t`, so the picture showing
    /// at `t` is decoded, not the next keyframe's. libavformat's backward seek is approximate in some
    /// demuxers (MPEG-TS lands on the next keyframe): the landing point is checked, and while it lies
    /// after `t` the seek starts further back (1 s, 2 s, 4 s ... then the file's start).
    func seek(to t: Double) throws(MediaError) {
        let wanted = max(0, t - startOffset + firstPts)
        var backoff = 0.0
        while true {
            let from = wanted - backoff
            let fromStart = from <= firstPts
            try demuxer.seek(toSeconds: max(0, fromStart ? min(firstPts, wanted) - 1 : from), streamIndex: stream.index)
            decoder.reset()
            lookahead = nil
            inputDone = false
            decoderDrained = false
            pending = nil
            // The landing point: the first keyframe of this stream from here on.
            var landed: Packet?
            while let packet = try demuxer.readPacket() {
                if packet.streamIndex == stream.index, packet.isKeyframe { landed = packet; break }
            }
            let landedAt = landed.flatMap { $0.ptsSeconds ?? $0.dtsSeconds }
            if let landedAt, landedAt > wanted + 0.0005, !fromStart {
                backoff = backoff == 0 ? 1 : backoff * 2
                continue
            }
            pending = landed
            position = t
            return
        }
    }

    /// The session time of the first keyframe at or after `t`, leaving the reader positioned on it;
    /// nil when the file has none (the caller keeps its old layer).
    func positionAtKeyframe(atOrAfter t: Double) throws(MediaError) -> Double? {
        try seek(to: t)
        while let packet = try nextPacket() {
            guard packet.isKeyframe, let time = sessionTime(ofPacket: packet), time >= t - 0.0005 else { continue }
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
        if let packet = pending {
            pending = nil
            return packet
        }
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == stream.index { return packet }
        }
        return nil
    }
}
