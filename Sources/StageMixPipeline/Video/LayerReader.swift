import Foundation
import StageMixMedia
import StageMixStorage

/// Reads one simulcast layer file and hands out the picture showing at a session time.
///
/// A sample at presentation time `pts` (file's first `pts0`) happens at session time
/// `startOffset + (pts - pts0)`. Decoding only moves forward; a jump ahead seeks.
///
/// Damage does not stop the reader: packets before a keyframe are not decoded (they cannot be), and
/// after a decode error the decoder restarts at the next keyframe, the last good picture held
/// meanwhile. `trouble` says why the picture is not the file's while that lasts; `endTime` says where
/// the file's pictures ran out.
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
    /// Packets wait for a keyframe after opening, seeking or an error: nothing before one decodes.
    private var awaitingKeyframe = true
    /// Errors the decoder had logged by the last frame: more means it concealed damage in this one.
    private var decoderErrors = 0
    /// The session time of the last decoded picture and the spacing of pictures, for `endTime`.
    private var lastFrameTime: Double?
    private var frameInterval: Double

    /// Why the pictures are not the file's right now (held, or none yet), and since when; nil while they are.
    private(set) var trouble: (cause: MediaLoss.Cause, since: Double, detail: String)?
    /// The session time of the clean picture that ends `trouble`: decoding runs a frame ahead of showing.
    private var troubleEnds: Double?
    /// The session time the file's pictures end at, once decoding has reached the end.
    private(set) var endTime: Double?

    /// How far ahead a request must jump to seek instead of decoding through.
    static let seekThreshold = 1.0
    /// Pictures further apart than this (seconds) are a gap in the recording, not a slow source.
    static let gapThreshold = 1.0
    /// A layer's first picture this much later than asked for is missing, not merely a frame late.
    static let firstPictureTolerance = 0.1
    /// Unreadable packets in a row after which the rest of the file is given up.
    static let maxReadErrorsInARow = 8

    private let counter: DecodeCounter

    /// Opens a layer the capture says is `width`x`height`: a stream or picture over `MediaLimits.nominalSlack`
    /// times that (or over `MediaLimits.maxPixels`) is refused as `.tooLarge`.
    init(media: MediaLocation, file: String, width: Int, height: Int, startOffsetSeconds: Double, counter: DecodeCounter,
         threadCount: Int = 1, limits: MediaLimits = .standard) throws(MediaError) {
        self.file = file
        self.counter = counter
        let limits = limits.forLayer(width: width, height: height)
        demuxer = try Demuxer(media, limits: limits)
        guard let video = demuxer.firstStream(ofType: .video) else {
            throw MediaError(.invalidData, "'\(media)' has no video stream")
        }
        guard video.width * video.height <= limits.maxPixels else {
            throw MediaError(.tooLarge, "'\(media)' claims \(video.width)x\(video.height) pictures for a \(width)x\(height) layer")
        }
        stream = video
        decoder = try VideoDecoder(stream: video, threadCount: threadCount, maxPixels: limits.maxPixels)
        startOffset = startOffsetSeconds
        firstPts = Double(video.startTime ?? 0) * video.timeBase.doubleValue
        frameInterval = 1.0 / 30  // until two pictures show the real spacing
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
            guard time <= t + epsilon else {
                // Nothing lies between: a gap in the file's timestamps is waited out, not sought through.
                position = max(position, t)
                break
            }
            current = next
            position = max(position, time)
            lookahead = nil
            if let end = troubleEnds, time >= end - epsilon {
                trouble = nil
                troubleEnds = nil
            }
        }
        if trouble == nil, let shown = current, let next = lookahead,
           sessionTime(of: next) - sessionTime(of: shown) > Self.gapThreshold {
            // The file's timestamps jump: the last picture holds until the next one is due.
            let from = sessionTime(of: shown) + frameInterval, to = sessionTime(of: next)
            trouble = (.timestampGap, from, String(format: "no picture from %.3f to %.3f s", from, to))
            troubleEnds = to
        }
        if current == nil, trouble == nil, let next = lookahead, sessionTime(of: next) > t + Self.firstPictureTolerance {
            // Nothing to show until the first keyframe (the file starts without one: seeking found the next).
            let first = sessionTime(of: next)
            trouble = (.noKeyframeYet, t, "no keyframe before \(String(format: "%.3f", first)) s")
            troubleEnds = first
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
            endTime = nil
            pending = nil
            // The landing point: the first keyframe of this stream from here on (damaged packets skipped).
            var landed: Packet?
            while let packet = try readPacket(onDamage: { _ in }) {
                if packet.streamIndex == stream.index, packet.isKeyframe { landed = packet; break }
            }
            let landedAt = landed.flatMap { $0.ptsSeconds ?? $0.dtsSeconds }
            if let landedAt, landedAt > wanted + 0.0005, !fromStart {
                backoff = backoff == 0 ? 1 : backoff * 2
                continue
            }
            pending = landed
            // Decoding starts at the keyframe it landed on; with none left, the layer waits for one as after damage.
            awaitingKeyframe = landed == nil
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
            let output: DecoderOutput<VideoFrame>
            do {
                output = try decoder.receive()
            } catch {
                damaged(error, at: lastFrameTime ?? position)
                continue
            }
            switch output {
            case .frame(let frame):
                counter.count(file)
                let time = sessionTime(of: frame)
                if let last = lastFrameTime, time > last, time - last < 1 { frameInterval = time - last }
                lastFrameTime = time
                if decoder.loggedErrors > decoderErrors {
                    // Decoded, but over damage the decoder concealed: wrong until the next clean keyframe.
                    decoderErrors = decoder.loggedErrors
                    if trouble == nil { trouble = (.decodeErrors, time, "\(decoder.codecName) concealed damage") }
                    troubleEnds = nil
                } else if trouble != nil, troubleEnds == nil, frame.isKeyframe || trouble?.cause == .noKeyframeYet {
                    troubleEnds = time
                }
                return frame
            case .endOfStream:
                decoderDrained = true
                endTime = lastFrameTime.map { $0 + frameInterval } ?? position
            case .needsInput:
                if inputDone { decoderDrained = true; break }
                if let packet = try nextPacket() {
                    do {
                        try decoder.send(packet)
                    } catch {
                        damaged(error, at: sessionTime(ofPacket: packet) ?? position)
                    }
                } else {
                    inputDone = true
                    try? decoder.send(nil)
                }
            }
        }
        return nil
    }

    /// A packet that did not decode: start again at the next keyframe, holding the last picture.
    private func damaged(_ error: MediaError, at time: Double) {
        decoder.reset()
        decoderErrors = decoder.loggedErrors
        awaitingKeyframe = true
        troubleEnds = nil
        if trouble == nil || trouble?.cause == .noKeyframeYet {
            trouble = (error.code == .tooLarge ? .tooLarge : .decodeErrors, time, error.message)
        }
    }

    /// The next packet of any stream, reading past up to `maxReadErrorsInARow` damaged ones in a row,
    /// each told to `onDamage`.
    private func readPacket(onDamage: (MediaError) -> Void) throws(MediaError) -> Packet? {
        var errors = 0
        while true {
            do {
                return try demuxer.readPacket()
            } catch where error.code == .invalidData && errors < Self.maxReadErrorsInARow {
                errors += 1
                onDamage(error)
            }
        }
    }

    private func nextPacket() throws(MediaError) -> Packet? {
        if let packet = pending {
            pending = nil
            return packet
        }
        while true {
            let read = try readPacket { error in
                decoder.reset()
                awaitingKeyframe = true
                troubleEnds = nil
                if trouble == nil { trouble = (.corruptPackets, lastFrameTime ?? position, error.message) }
            }
            guard let packet = read else { return nil }
            guard packet.streamIndex == stream.index else { continue }
            if awaitingKeyframe {
                guard packet.isKeyframe else {
                    if current == nil, lookahead == nil, trouble == nil {
                        trouble = (.noKeyframeYet, sessionTime(ofPacket: packet) ?? position, "the layer starts without a keyframe")
                    }
                    continue
                }
                awaitingKeyframe = false
            }
            return packet
        }
    }
}
