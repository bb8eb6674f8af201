import Foundation
import StageMixMedia
import Testing

extension ComposedOutput {
    /// Every picture of a media file's first video stream, by its presentation time in the file.
    /// `skippingDamage`: a frame the decoder refuses is left out (a reference another tool wrote with
    /// the broken frames it was given, as janus-pp-rec does), instead of failing.
    static func decodeVideo(_ file: URL, skippingDamage: Bool = false) throws -> [(time: Double, frame: VideoFrame)] {
        let demuxer = try Demuxer(url: file)
        let stream = try #require(demuxer.firstStream(ofType: .video))
        let decoder = try VideoDecoder(stream: stream)
        var frames: [(Double, VideoFrame)] = []
        func take() throws { while case .frame(let f) = try decoder.receive() { frames.append((f.seconds ?? 0, f)) } }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream.index else { continue }
            do {
                try decoder.send(packet)
                try take()
            } catch where skippingDamage {
                continue
            }
        }
        do {
            try decoder.send(nil)
            try take()
        } catch where skippingDamage {
            // The frames held back at the end, behind a broken one: what was decoded is the reference.
        }
        return frames.sorted { $0.0 < $1.0 }
    }

    /// A media file's first audio stream decoded (first channel), from its first packet's time (returned).
    static func decodeAudio(_ file: URL) throws -> (samples: [Float], rate: Int, start: Double) {
        let demuxer = try Demuxer(url: file)
        let stream = try #require(demuxer.firstStream(ofType: .audio))
        let decoder = try AudioDecoder(stream: stream)
        var samples: [Float] = []
        var start: Double?
        func take() throws { while case .frame(let s) = try decoder.receive() { samples += s.channel(at: 0) } }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream.index else { continue }
            if start == nil { start = packet.ptsSeconds }
            try decoder.send(packet)
            try take()
        }
        try decoder.send(nil)
        try take()
        return (samples, stream.sampleRate, start ?? 0)
    }
}
