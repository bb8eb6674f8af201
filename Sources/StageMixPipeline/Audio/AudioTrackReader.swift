import Foundation
import StageMixMedia

/// Reads one audio track file and delivers its samples on the session clock, at 48 kHz.
///
/// Opus goes through libopus; anything else through libavcodec, resampled to 48 kHz with libswresample.
/// Samples are placed by packet timestamps, so gaps in the file become silence.
final class AudioTrackReader {
    static let sampleRate = 48_000

    let file: String
    private let demuxer: Demuxer
    private let stream: StreamInfo
    private let opus: OpusDecoder?
    private let other: AudioDecoder?
    /// For non-Opus audio not at 48 kHz.
    private let resampler: AudioResampler?
    private let startSample: Int
    private let firstPts: Double
    /// Decoded mono samples not yet consumed, starting at session sample `bufferStart`.
    private var buffer: [Float] = []
    private var bufferStart = 0
    private var finished = false

    init(url: URL, file: String, startOffsetMs: Int) throws(MediaError) {
        self.file = file
        demuxer = try Demuxer(url: url)
        guard let audio = demuxer.firstStream(ofType: .audio) else {
            throw MediaError(.invalidData, "'\(url.path)' has no audio stream")
        }
        stream = audio
        if audio.codecName == "opus" {
            opus = try OpusDecoder(stream: audio)
            other = nil
            resampler = nil
        } else {
            opus = nil
            other = try AudioDecoder(stream: audio)
            resampler = audio.sampleRate == Self.sampleRate ? nil
                : try AudioResampler(inputRate: audio.sampleRate, inputChannels: max(1, audio.channels))
        }
        startSample = startOffsetMs * Self.sampleRate / 1000
        firstPts = Double(audio.startTime ?? 0) * audio.timeBase.doubleValue
        bufferStart = startSample
    }

    /// Adds this track's samples for session samples `[start, start + out.count)` into `out` (mono).
    func mix(into out: UnsafeMutableBufferPointer<Float>, from start: Int) throws(MediaError) {
        let end = start + out.count
        if start > bufferStart + buffer.count + Self.sampleRate {
            try seek(toSample: start)
        }
        while !finished, bufferStart + buffer.count < end { try decodeMore() }
        // Drop what lies before the window.
        if start > bufferStart {
            let drop = min(buffer.count, start - bufferStart)
            buffer.removeFirst(drop)
            bufferStart += drop
        }
        let from = max(start, bufferStart)
        let to = min(end, bufferStart + buffer.count)
        guard from < to else { return }
        buffer.withUnsafeBufferPointer { src in
            for s in from..<to { out[s - start] += src[s - bufferStart] }
        }
    }

    private func seek(toSample sample: Int) throws(MediaError) {
        let seconds = Double(sample - startSample) / Double(Self.sampleRate) + firstPts
        try demuxer.seek(toSeconds: max(0, seconds), streamIndex: stream.index)
        opus?.reset()
        buffer.removeAll(keepingCapacity: true)
        bufferStart = sample
        finished = false
    }

    private func decodeMore() throws(MediaError) {
        guard let packet = try nextPacket() else {
            if let other { try other.send(nil); try drain(other, at: nil) }
            finished = true
            return
        }
        let at = packet.ptsSeconds.map { startSample + Int((($0 - firstPts) * Double(Self.sampleRate)).rounded()) }
        if let opus {
            append(try opus.decode(packet), at: at)
        } else if let other {
            try other.send(packet)
            try drain(other, at: at)
        }
    }

    private func drain(_ decoder: AudioDecoder, at: Int?) throws(MediaError) {
        var position = at
        while case .frame(let decoded) = try decoder.receive() {
            let samples = try resampler?.convert(decoded) ?? decoded
            append(samples, at: position)
            position = position.map { $0 + samples.frameCount }
        }
    }

    /// Places decoded samples at session sample `at` (or right after what is buffered), down-mixed to mono.
    private func append(_ samples: AudioSamples, at: Int?) {
        let frames = samples.frameCount
        guard frames > 0 else { return }
        let end = bufferStart + buffer.count
        var position = at ?? end
        // Opus packets carry pre-skip in their first timestamps; trust continuity when within a packet.
        if abs(position - end) < 960 { position = end }
        if position > end {
            buffer.append(contentsOf: repeatElement(0, count: position - end))
        }
        var skip = max(0, end - position)
        let channels = samples.channels
        samples.interleaved.withUnsafeBufferPointer { src in
            buffer.reserveCapacity(buffer.count + frames)
            while skip < frames {
                var sum: Float = 0
                for c in 0..<channels { sum += src[skip * channels + c] }
                buffer.append(sum / Float(channels))
                skip += 1
            }
        }
    }

    private func nextPacket() throws(MediaError) -> Packet? {
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == stream.index { return packet }
        }
        return nil
    }
}
