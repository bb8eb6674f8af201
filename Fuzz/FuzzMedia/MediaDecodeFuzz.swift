import Foundation
import StageMixMedia

/// One fuzz input taken as a layer's media file: opened with `Demuxer`, its first video stream decoded
/// with `VideoDecoder` and its first audio stream with `OpusDecoder` (Opus) or `AudioDecoder`, as the
/// pipeline's readers do, for a bounded number of packets, then a seek back and a few more.
/// Any input may be rejected; none may trap, leak past the RSS limit or hang.
enum MediaDecodeFuzz {
    /// Packets read per input, so one input cannot run for long.
    static let packetLimit = 300
    /// Where the input is written: libavformat opens files by path, as the pipeline does.
    static let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("stagemix-fuzz-media-\(ProcessInfo.processInfo.processIdentifier)")

    static func run(_ bytes: Data) {
        MediaLog.setLevel(.quiet)
        guard (try? bytes.write(to: file)) != nil else { return }
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let demuxer = try Demuxer(url: file)
            _ = demuxer.formatName
            _ = demuxer.duration
            let decoders = StreamDecoders(demuxer: demuxer)
            try decoders.decode(packets: packetLimit)
            try demuxer.seek(toSeconds: 0)
            try decoders.decode(packets: packetLimit / 10)
            try decoders.flush()
        } catch {
            _ = "\(error)"
        }
    }
}

/// The decoders of one fuzz input's first video and first audio stream.
private struct StreamDecoders {
    let demuxer: Demuxer
    var video: (index: Int, decoder: VideoDecoder)?
    var opus: (index: Int, decoder: OpusDecoder)?
    var audio: (index: Int, decoder: AudioDecoder)?

    init(demuxer: Demuxer) {
        self.demuxer = demuxer
        if let stream = demuxer.firstStream(ofType: .video), let decoder = try? VideoDecoder(stream: stream, threadCount: 1) {
            video = (stream.index, decoder)
        }
        if let stream = demuxer.firstStream(ofType: .audio) {
            if stream.codecName == "opus" {
                if let decoder = try? OpusDecoder(stream: stream) { opus = (stream.index, decoder) }
            } else if let decoder = try? AudioDecoder(stream: stream) {
                audio = (stream.index, decoder)
            }
        }
    }

    func decode(packets limit: Int) throws(MediaError) {
        for _ in 0..<limit {
            guard let packet = try demuxer.readPacket() else { return }
            _ = (packet.pts, packet.dts, packet.ptsSeconds, packet.isKeyframe, packet.skipSamples)
            // A packet the decoder refuses is what damaged media does; go on as the pipeline does.
            if let video, packet.streamIndex == video.index {
                do { try video.decoder.send(packet) } catch { continue }
                drain(video.decoder)
            } else if let opus, packet.streamIndex == opus.index {
                _ = try? opus.decoder.decode(packet)
            } else if let audio, packet.streamIndex == audio.index {
                do { try audio.decoder.send(packet) } catch { continue }
                drain(audio.decoder)
            }
        }
    }

    func flush() throws(MediaError) {
        if let video { try video.decoder.send(nil); drain(video.decoder) }
        if let audio { try audio.decoder.send(nil); drain(audio.decoder) }
    }

    /// Takes every frame the decoder has; a decoding error ends the drain, not the input.
    private func drain(_ decoder: VideoDecoder) {
        while case .frame(let frame)? = try? decoder.receive() {
            _ = (frame.width, frame.height, frame.pixelFormat, frame.seconds, frame.isKeyframe)
        }
    }

    private func drain(_ decoder: AudioDecoder) {
        while case .frame(let samples)? = try? decoder.receive() {
            _ = samples.frameCount
        }
    }
}
