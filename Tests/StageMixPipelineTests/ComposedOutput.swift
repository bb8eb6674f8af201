import Foundation
import StageMixTestSupport
import StageMixMedia
import Testing

/// A composed HLS output decoded back: every video frame's time, and the whole audio track.
struct ComposedOutput {
    struct Segment { var duration: Double; var file: String }

    let directory: URL
    let playlist: String
    let segments: [Segment]
    /// Decoded frames by output time (seconds from the first frame).
    let frames: [(time: Double, frame: VideoFrame)]
    /// Mono mix of the decoded audio (first channel), 48 kHz, from the first audio sample.
    let audio: [Float]
    /// First video and audio presentation times in the stream.
    let firstVideo: Double
    let firstAudio: Double
    let audioSampleRate: Int

    /// Decodes `hls/index.m3u8`, or with `media` that file (an MP4 beside it) instead.
    init(hls: URL, media: URL? = nil) throws {
        directory = hls
        playlist = media == nil ? try String(contentsOf: hls.appendingPathComponent("index.m3u8"), encoding: .utf8) : ""
        var segments: [Segment] = []
        var pending: Double?
        for line in playlist.split(separator: "\n") {
            if line.hasPrefix("#EXTINF:") {
                pending = Double(line.dropFirst(8).split(separator: ",")[0])
            } else if !line.hasPrefix("#"), let duration = pending {
                segments.append(Segment(duration: duration, file: String(line)))
                pending = nil
            }
        }
        self.segments = segments

        let demuxer = try Demuxer(url: media ?? hls.appendingPathComponent("index.m3u8"))
        let videoStream = try #require(demuxer.firstStream(ofType: .video))
        let audioStream = try #require(demuxer.firstStream(ofType: .audio))
        let video = try VideoDecoder(stream: videoStream)
        let audioDecoder = try AudioDecoder(stream: audioStream)
        var frames: [(Double, VideoFrame)] = []
        var audio: [Float] = []
        var firstAudio: Double?
        func takeVideo() throws {
            while case .frame(let f) = try video.receive() { frames.append((f.seconds ?? 0, f)) }
        }
        func takeAudio() throws {
            while case .frame(let s) = try audioDecoder.receive() { audio += s.channel(at: 0) }
        }
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == videoStream.index {
                try video.send(packet); try takeVideo()
            } else if packet.streamIndex == audioStream.index {
                if firstAudio == nil { firstAudio = packet.ptsSeconds }
                try audioDecoder.send(packet); try takeAudio()
            }
        }
        try video.send(nil); try takeVideo()
        try audioDecoder.send(nil); try takeAudio()
        frames.sort { $0.0 < $1.0 }
        let first = frames.first?.0 ?? 0
        self.frames = frames.map { ($0.0 - first, $0.1) }
        firstVideo = first
        self.firstAudio = firstAudio ?? 0
        self.audio = audio
        audioSampleRate = audioStream.sampleRate
    }

    /// The frame shown at output time `t`.
    func frame(at t: Double) -> VideoFrame? {
        frames.last { $0.time <= t + 0.001 }?.frame
    }

    /// Audio samples of `[from, to)` seconds of output time.
    func audio(from: Double, to: Double) -> ArraySlice<Float> {
        let a = max(0, Int(from * Double(audioSampleRate))), b = min(audio.count, Int(to * Double(audioSampleRate)))
        return a < b ? audio[a..<b] : []
    }
}

/// Power of one frequency in a block of samples (Goertzel), normalised by length.
func tonePower(_ frequency: Double, in samples: ArraySlice<Float>, sampleRate: Int = 48_000) -> Double {
    let n = Double(max(samples.count, 1))
    return Goertzel.power(of: frequency, in: samples, sampleRate: Double(sampleRate)) / (n * n)
}
