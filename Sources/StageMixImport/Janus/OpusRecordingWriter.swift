import Foundation
import StageMixMedia

/// Writes a recording's Opus packets, one RTP payload each, into a Matroska audio file (`.mka`) at
/// their RTP times.
///
/// Pre-skip is 0: a WebRTC receiver plays decoded samples at their RTP time and skips nothing, so with
/// 0 the decoded sample n of a packet sits at that packet's RTP time + n, as it was heard. (312, the
/// libopus encoder delay, would move everything 6.5 ms early and cut the first 6.5 ms.)
/// A gap in RTP time (DTX, a network hole) stays a gap, and decoders fill the hole with silence.
/// Not Ogg: FFmpeg's Ogg demuxer gives the first packet of a page the previous page's end time, so
/// the first packet after a gap would be read at the gap's start. Matroska keeps each block's time.
final class OpusRecordingWriter {
    private let url: URL
    private let mjr: URL
    private let stereo: Bool?
    private let live: Bool
    private var muxer: Muxer?
    private var log: LossLog
    private var first: Int64 = 0
    private var end: Int64 = 0
    private var invalid = 0
    private var overlapping = 0
    static let timeBase = Rational(1, 48_000)

    /// `stereo` is what the fmtp says, when it says anything; otherwise the first packet's TOC decides.
    /// `live`: Matroska written to be read while it grows (no cues, clusters whole when flushed).
    init(url: URL, mjr: URL, originUs: Int64, stereo: Bool?, live: Bool = false) {
        self.url = url
        self.live = live
        self.mjr = mjr
        self.stereo = stereo
        log = LossLog(originUs: originUs, clockRate: 48_000)
    }

    func write(_ packet: SequencedPacket) throws(MediaError) {
        guard !packet.rtp.isPadding else { return }
        guard let toc = OpusTOC(packet.rtp.payload) else {
            invalid += 1
            return
        }
        let muxer: Muxer
        if let open = self.muxer {
            muxer = open
            guard packet.ticks >= end else {
                overlapping += 1
                return
            }
            if packet.ticks > end, packet.gapBefore, !packet.startsNewSource {
                log.add(.missingAudio, from: end, to: packet.ticks)
            }
        } else {
            muxer = try Muxer(url: url, format: "matroska")
            let channels = (stereo ?? toc.isStereo) ? 2 : 1
            let head = Self.opusHead(channels: channels)
            _ = try muxer.addOpusStream(channels: channels, header: head, preSkip: 0)
            try muxer.writeHeader(options: live ? ["live": "1"] : [:])
            self.muxer = muxer
            first = packet.ticks
        }
        let out = try Packet(bytes: packet.rtp.payload, pts: packet.ticks - first, duration: Int64(toc.samples),
                             timeBase: Self.timeBase)
        try muxer.write(out, toStream: 0)
        end = packet.ticks + Int64(toc.samples)
    }

    func flush() throws(MediaError) { try muxer?.flush() }

    var firstWrittenTicks: Int64? { muxer == nil ? nil : first }
    var writtenTicks: Int64 { end }
    var heldTicks: Int64? { nil }

    func finish() throws(MediaError) -> WrittenMedia {
        try muxer?.finish()
        var warnings: [String] = []
        if invalid > 0 { warnings.append("\(mjr.lastPathComponent): \(invalid) packets are not Opus (no table of contents); skipped") }
        if overlapping > 0 { warnings.append("\(mjr.lastPathComponent): \(overlapping) Opus packets overlap the ones before them; skipped") }
        return WrittenMedia(file: muxer == nil ? nil : url, firstTicks: first, endTicks: end, width: nil, height: nil,
                            losses: log.losses(tail: 0), warnings: warnings)
    }

    /// RFC 7845's identification header for mono or stereo, pre-skip 0, 48 kHz input.
    static func opusHead(channels: Int) -> [UInt8] {
        Array("OpusHead".utf8) + [1, UInt8(channels), 0, 0] + [0x80, 0xBB, 0, 0] + [0, 0, 0]
    }
}
