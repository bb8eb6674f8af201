import Foundation
import StageMixMedia

/// Writes a recording's video pictures at their RTP times (90 kHz) into WebM (VP8, VP9) or MPEG-TS
/// (H.264 Annex B, which needs no extradata and takes size changes). Writing starts at the first
/// keyframe; after a lost picture it waits for the next keyframe, since what follows refers to it.
/// Each picture is written when the next one arrives, which gives its duration.
final class VideoRecordingWriter {
    private let codec: VideoCodecID
    private let url: URL
    private let mjr: URL
    private let live: Bool
    private var depacketizer: any VideoDepacketizer
    private var collector = VideoFrameCollector()
    private var muxer: Muxer?
    private var log: LossLog
    private var held: (bytes: [UInt8], ticks: Int64, isKeyframe: Bool)?
    private var first: Int64 = 0
    private var end: Int64 = 0
    private var lastDuration: Int64 = 6000  // 1/15 s until two pictures say otherwise
    private var waitingReason: JanusLoss.Reason? = .beforeFirstKeyframe
    private var width: Int?
    private var height: Int?
    private var warnings: [String] = []
    private var backwards = 0
    static let timeBase = Rational(1, 90_000)

    /// `live`: WebM written to be read while it grows (no cues, clusters whole when flushed); MPEG-TS is so already.
    init(codec: VideoCodecID, url: URL, mjr: URL, originUs: Int64, live: Bool = false) {
        self.live = live
        self.codec = codec
        self.url = url
        self.mjr = mjr
        switch codec {
        case .vp8: depacketizer = VP8Depacketizer()
        case .vp9: depacketizer = VP9Depacketizer()
        case .h264: depacketizer = H264Depacketizer()
        }
        log = LossLog(originUs: originUs, clockRate: 90_000)
    }

    func write(_ packet: SequencedPacket) throws(MediaError) {
        if let picture = collector.push(packet) { try take(picture) }
    }

    func flush() throws(MediaError) { try muxer?.flush() }

    var firstWrittenTicks: Int64? { muxer == nil ? nil : first }
    var writtenTicks: Int64 { end }
    var heldTicks: Int64? { held?.ticks ?? collector.pendingTicks }
    /// The largest picture written so far.
    var pictureSize: (width: Int, height: Int)? { width.flatMap { w in height.map { (w, $0) } } }

    func finish() throws(MediaError) -> WrittenMedia {
        if let picture = collector.finish() { try take(picture) }
        if let held { try output(held, duration: lastDuration) }
        held = nil
        try muxer?.finish()
        if backwards > 0 { warn("\(backwards) pictures go back in time; skipped") }
        return WrittenMedia(file: muxer == nil ? nil : url, firstTicks: first, endTicks: end, width: width, height: height,
                            losses: log.losses(tail: lastDuration), warnings: warnings)
    }

    private func take(_ picture: CollectedFrame) throws(MediaError) {
        // A new SSRC's pictures cannot refer to the old one's: it starts at a keyframe too.
        if picture.packets.first?.startsNewSource == true, waitingReason == nil { waitingReason = .waitingForKeyframe }
        switch depacketizer.assemble(picture) {
        case .lost(let reason, let warning):
            if let warning { warn(warning) }
            log.drop(reason, at: picture.ticks)
            if waitingReason == nil { waitingReason = .waitingForKeyframe }
        case .frame(let bytes, let isKeyframe, let w, let h):
            if let reason = waitingReason, !isKeyframe {
                log.drop(reason, at: picture.ticks)
                return
            }
            if let held, picture.ticks <= held.ticks {
                backwards += 1
                return
            }
            waitingReason = nil
            if let w, let h, w * h > (width ?? 0) * (height ?? 0) { (width, height) = (w, h) }
            log.resume(at: picture.ticks)
            try hold((bytes, picture.ticks, isKeyframe))
        }
    }

    private func hold(_ picture: (bytes: [UInt8], ticks: Int64, isKeyframe: Bool)) throws(MediaError) {
        if let held {
            lastDuration = picture.ticks - held.ticks
            try output(held, duration: lastDuration)
        } else {
            let muxer = try Muxer(url: url, format: codec == .h264 ? "mpegts" : "webm")
            if width == nil { warn("the first keyframe does not say its picture size; the file claims 640x480") }
            _ = try muxer.addVideoStream(codec: codec, width: width ?? 640, height: height ?? 480, timeBase: Self.timeBase)
            try muxer.writeHeader(options: live && codec != .h264 ? ["live": "1"] : [:])
            self.muxer = muxer
            first = picture.ticks
        }
        held = picture
    }

    private func output(_ picture: (bytes: [UInt8], ticks: Int64, isKeyframe: Bool), duration: Int64) throws(MediaError) {
        let packet = try Packet(bytes: picture.bytes, pts: picture.ticks - first, duration: duration, timeBase: Self.timeBase,
                                isKeyframe: picture.isKeyframe)
        try muxer?.write(packet, toStream: 0)
        end = picture.ticks + duration
    }

    private func warn(_ text: String) {
        let line = "\(mjr.lastPathComponent): \(text)"
        if !warnings.contains(line) { warnings.append(line) }
    }
}
