import Foundation
import StageMixMedia
import StageMixTime

/// Encodes a synthetic microphone: a sine tone (or digital silence), mono Opus in Ogg, 48 kHz.
///
/// Sample 0 (after the encoder's pre-skip) is the track's `startOffsetMs`; samples run without
/// a break to the end of its last published interval. Where the track is not flowing (between
/// two published intervals, or paused) the samples are silence, because Ogg cannot hold a gap.
struct ToneTrackWriter {
    var url: URL
    /// nil: silence throughout.
    var toneHz: Double?
    static let amplitude: Float = 0.3

    func write(_ timeline: TrackMediaTimeline) throws(MediaError) {
        guard let start = timeline.startOffsetMs, let end = timeline.endMs else { return }
        let encoder = try OpusEncoder(channels: 1, bitrate: 24_000)
        let muxer = try Muxer(url: url, format: "ogg")
        let stream = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
        let total = MediaTime.samples(ms: end - start)
        let block = 4_800
        var n = 0
        while n < total {
            let count = min(block, total - n)
            var samples = [Float](repeating: 0, count: count)
            for i in 0..<count {
                let sample = n + i
                let ms = Double(start) + Double(sample) / Double(MediaTime.samplesPerMs)
                guard let toneHz, timeline.isFlowing(atMs: ms) else { continue }
                samples[i] = Self.amplitude * Float(sin(2 * .pi * toneHz * Double(sample) / Double(MediaTime.sampleRate)))
            }
            for packet in try encoder.encode(AudioSamples(sampleRate: MediaTime.sampleRate, channels: 1, interleaved: samples)) {
                try muxer.write(packet, toStream: stream)
            }
            n += count
        }
        for packet in try encoder.finish() { try muxer.write(packet, toStream: stream) }
        try muxer.finish()
    }
}
