import Foundation
import StageMixMedia
import StageMixTestSupport

/// One RTP packet of a synthetic Janus recording, and when it "arrived" (ms after the header's `u`).
struct SyntheticRTP {
    var sequenceNumber: UInt16
    var timestamp: UInt32
    var ssrc: UInt32 = 0x1234_5678
    var marker = false
    var payload: [UInt8]
    var arrivalMs: UInt32
    var payloadType: UInt8 = 96
    /// Bytes of RTP padding (P bit) after the payload.
    var padding = 0
    var csrcCount = 0
    /// A one-byte (0xBEDE) header extension with an audio level / orientation element.
    var hasExtension = true

    var bytes: [UInt8] {
        let paddingBit: UInt8 = padding > 0 ? 0x20 : 0
        let extensionBit: UInt8 = hasExtension ? 0x10 : 0
        let markerBit: UInt8 = marker ? 0x80 : 0
        var b: [UInt8] = [0x80 | paddingBit | extensionBit | UInt8(csrcCount), markerBit | payloadType]
        b += [UInt8(sequenceNumber >> 8), UInt8(sequenceNumber & 0xFF)]
        b += (0..<4).map { UInt8(truncatingIfNeeded: timestamp >> (24 - 8 * $0)) }
        b += (0..<4).map { UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * $0)) }
        for i in 0..<csrcCount { b += [0, 0, 0, UInt8(i + 1)] }
        if hasExtension { b += [0xBE, 0xDE, 0x00, 0x02, 0x10, 0x95, 0xD1, 0x00, 0x00, 0x00, 0x00, 0x00] }
        b += payload
        if padding > 0 { b += [UInt8](repeating: 0, count: padding - 1) + [UInt8(padding)] }
        return b
    }
}

/// Builds `.mjr` files as Janus writes them, and RTP packetizations of media made by ffmpeg or by
/// our own Opus encoder, so a test knows exactly what the converter should give back.
enum SyntheticJanusRecording {
    static func mjr(header: String, packets: [SyntheticRTP]) -> Data {
        var out = Array("MJR00002".utf8)
        let json = Array(header.utf8)
        out += [UInt8(json.count >> 8), UInt8(json.count & 0xFF)] + json
        for p in packets {
            let rtp = p.bytes
            out += Array("MEET".utf8)
            out += (0..<4).map { UInt8(truncatingIfNeeded: p.arrivalMs >> (24 - 8 * $0)) }
            out += [UInt8(rtp.count >> 8), UInt8(rtp.count & 0xFF)] + rtp
        }
        return Data(out)
    }

    static let u: Int64 = 1_795_768_536_610_777

    static func header(_ kind: String, _ codec: String, extra: String = "") -> String {
        #"{"t": "\#(kind)", "c": "\#(codec)", \#(extra)"s": \#(u - 100_000), "u": \#(u)}"#
    }

    // MARK: Opus

    /// `seconds` of a 440 Hz tone as 20 ms Opus packets from our own encoder (mono).
    static func opusPackets(seconds: Double) throws -> [[UInt8]] {
        let encoder = try OpusEncoder(channels: 1, bitrate: 32_000)
        let count = Int(seconds * 48_000)
        let tone = (0..<count).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let packets = try encoder.encode(AudioSamples(sampleRate: 48_000, channels: 1, interleaved: tone))
        return packets.map(\.bytes)
    }

    /// One RTP packet per Opus packet: 960 ticks and 20 ms apart.
    static func opusRTP(_ packets: [[UInt8]], firstSequence: UInt16 = 1, firstTimestamp: UInt32 = 0) -> [SyntheticRTP] {
        packets.enumerated().map { i, p in
            SyntheticRTP(sequenceNumber: firstSequence &+ UInt16(truncatingIfNeeded: i), timestamp: firstTimestamp &+ UInt32(i * 960),
                         marker: i == 0, payload: p, arrivalMs: UInt32(i * 20), payloadType: 111)
        }
    }

    // MARK: Video pictures made by ffmpeg

    /// Pictures of an IVF (VP8 or VP9) made by ffmpeg from `source` (a lavfi graph), `fps` 15.
    static func ivfPictures(codec: String, source: String, seconds: Double, gop: Int, in dir: URL) throws -> [[UInt8]] {
        let url = dir.appendingPathComponent("\(codec)-\(UUID().uuidString).ivf")
        try FFmpegTool.run(["-f", "lavfi", "-i", source, "-t", String(seconds), "-c:v", codec == "vp9" ? "libvpx-vp9" : "libvpx",
                            "-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k", "-g", String(gop), "-keyint_min", String(gop),
                            "-auto-alt-ref", "0", "-lag-in-frames", "0", "-threads", "1", url.path])
        return try IVFFile(Data(contentsOf: url)).frames.map { $0.payload }
    }

    /// H.264 access units (Annex B split into NAL units) made by libx264: baseline, one slice, SPS/PPS
    /// before each IDR.
    static func h264AccessUnits(source: String, seconds: Double, gop: Int, in dir: URL) throws -> [[[UInt8]]] {
        let url = dir.appendingPathComponent("h264-\(UUID().uuidString).h264")
        try FFmpegTool.run(["-f", "lavfi", "-i", source, "-t", String(seconds), "-c:v", "libx264", "-profile:v", "baseline",
                            "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", String(gop), "-threads", "1",
                            "-x264-params", "repeat-headers=1:sliced-threads=0", url.path])
        let bytes = [UInt8](try Data(contentsOf: url))
        var nals: [[UInt8]] = []
        var i = 0, start = -1
        while i + 3 <= bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                if start >= 0 { nals.append(trimZeros(bytes[start..<i])) }
                start = i + 3
                i += 3
            } else { i += 1 }
        }
        if start >= 0 { nals.append(Array(bytes[start...])) }
        var units: [[[UInt8]]] = [], current: [[UInt8]] = []
        for nal in nals where !nal.isEmpty {
            current.append(nal)
            if [1, 5].contains(nal[0] & 0x1F) {
                units.append(current)
                current = []
            }
        }
        return units
    }

    private static func trimZeros(_ s: ArraySlice<UInt8>) -> [UInt8] {
        var a = Array(s)
        while a.last == 0 { a.removeLast() }
        return a
    }

    /// Inserts a padding-only packet after each packet `after` picks, and renumbers every packet so the
    /// padding takes sequence numbers of its own, as a sender's bandwidth probes do.
    static func insertingPadding(_ packets: [SyntheticRTP], after: (Int) -> Bool) -> [SyntheticRTP] {
        var out: [SyntheticRTP] = []
        var seq = packets.first?.sequenceNumber ?? 1
        for (i, p) in packets.enumerated() {
            var p = p
            p.sequenceNumber = seq
            seq &+= 1
            out.append(p)
            if after(i) {
                out.append(SyntheticRTP(sequenceNumber: seq, timestamp: p.timestamp, ssrc: p.ssrc, payload: [], arrivalMs: p.arrivalMs,
                                        payloadType: p.payloadType, padding: 200))
                seq &+= 1
            }
        }
        return out
    }

    // MARK: Packetizers

    /// VP8 (RFC 7741): X=1 with a 15-bit picture id, S and partition 0 on the first packet, marker on the last.
    static func vp8RTP(_ pictures: [[UInt8]], mtu: Int = 500, firstSequence: UInt16 = 1, firstTimestamp: UInt32 = 0,
                       ssrc: UInt32 = 0x1234_5678, firstArrivalMs: UInt32 = 0) -> [SyntheticRTP] {
        packetize(pictures, mtu: mtu, firstSequence: firstSequence, firstTimestamp: firstTimestamp, ssrc: ssrc,
                  firstArrivalMs: firstArrivalMs) { picture, chunk, first, _ in
            let start: UInt8 = first ? 0x90 : 0x80  // X, and S with partition 0 on the first packet
            return [start, 0x80, 0x80 | UInt8(picture >> 8 & 0x7F), UInt8(picture & 0xFF)] + chunk
        }
    }

    /// VP9: picture id, B/E per packet; in non-flexible mode L with TL0PICIDX and the scalability
    /// structure (one layer, its size) on keyframes; in flexible mode P with one reference diff.
    static func vp9RTP(_ pictures: [[UInt8]], flexible: Bool, width: Int, height: Int, mtu: Int = 500) -> [SyntheticRTP] {
        packetize(pictures, mtu: mtu) { picture, chunk, first, last in
            let isKey = pictures[picture][0] & 0x04 == 0  // frame_type bit after marker(2) profile(2) show_existing(1)
            var d: UInt8 = 0x80
            if first { d |= 0x08 }
            if last { d |= 0x04 }
            if flexible { d |= 0x10 | (isKey ? 0 : 0x40) } else { d |= 0x20 | (isKey ? 0 : 0x40) }
            if first, isKey, !flexible { d |= 0x02 }
            var out: [UInt8] = [d, 0x80 | UInt8(picture >> 8 & 0x7F), UInt8(picture & 0xFF)]
            if flexible {
                if !isKey { out.append(0x02) }  // P_DIFF 1, N=0
            } else {
                out += [0x00, UInt8(picture & 0xFF)]  // TID 0 U 0 SID 0 D 0, TL0PICIDX
                if first, isKey {
                    out += [0x10, UInt8(width >> 8), UInt8(width & 0xFF), UInt8(height >> 8), UInt8(height & 0xFF)]
                }
            }
            return out + chunk
        }
    }

    /// H.264 (RFC 6184, mode 1): SPS and PPS in one STAP-A, NAL units over `mtu` as FU-A, the rest single.
    static func h264RTP(_ units: [[[UInt8]]], mtu: Int = 500) -> [SyntheticRTP] {
        var out: [SyntheticRTP] = []
        var seq: UInt16 = 1
        for (n, unit) in units.enumerated() {
            var payloads: [[UInt8]] = []
            let parameters = unit.filter { [7, 8].contains($0[0] & 0x1F) }
            if !parameters.isEmpty {
                let indicator: UInt8 = 24 | parameters[0][0] & 0x60
                let body: [UInt8] = parameters.flatMap { nal -> [UInt8] in [UInt8(nal.count >> 8), UInt8(nal.count & 0xFF)] + nal }
                payloads.append([indicator] + body)
            }
            for nal in unit where ![7, 8].contains(nal[0] & 0x1F) {
                guard nal.count > mtu else {
                    payloads.append(nal)
                    continue
                }
                let body = Array(nal.dropFirst())
                var at = 0
                while at < body.count {
                    let chunk = Array(body[at..<min(at + mtu, body.count)])
                    var header: UInt8 = nal[0] & 0x1F
                    if at == 0 { header |= 0x80 }
                    if at + chunk.count == body.count { header |= 0x40 }
                    let indicator: UInt8 = nal[0] & 0xE0 | 28
                    payloads.append([indicator, header] + chunk)
                    at += chunk.count
                }
            }
            for (i, p) in payloads.enumerated() {
                out.append(SyntheticRTP(sequenceNumber: seq, timestamp: UInt32(n * 6000), marker: i == payloads.count - 1,
                                        payload: p, arrivalMs: UInt32(n * 1000 / 15), payloadType: 107))
                seq &+= 1
            }
        }
        return out
    }

    /// Splits each picture into chunks of at most `mtu` bytes, each behind the descriptor `describe`
    /// makes (picture number, chunk, first, last); 6000 ticks and 66 ms apart, marker on each last chunk.
    static func packetize(_ pictures: [[UInt8]], mtu: Int, firstSequence: UInt16 = 1, firstTimestamp: UInt32 = 0,
                          ssrc: UInt32 = 0x1234_5678, firstArrivalMs: UInt32 = 0,
                          describe: (Int, [UInt8], Bool, Bool) -> [UInt8]) -> [SyntheticRTP] {
        var out: [SyntheticRTP] = []
        var seq = firstSequence
        for (n, picture) in pictures.enumerated() {
            var at = 0
            repeat {
                let chunk = Array(picture[at..<min(at + mtu, picture.count)])
                let last = at + chunk.count >= picture.count
                out.append(SyntheticRTP(sequenceNumber: seq, timestamp: firstTimestamp &+ UInt32(n * 6000), ssrc: ssrc, marker: last,
                                        payload: describe(n, chunk, at == 0, last), arrivalMs: firstArrivalMs + UInt32(n * 1000 / 15)))
                seq &+= 1
                at += chunk.count
            } while at < picture.count
        }
        return out
    }
}
