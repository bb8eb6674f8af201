public import Foundation
public import StageMixCapture
import StageMixMedia
import StageMixTime
import StageMixStorage

/// The lobby check of a capture: does every track layer open and decode, what codec, size,
/// rate and length does it have, where is its first keyframe, and is any microphone silent
/// throughout (its peak never above `silenceThresholdDbfs`, as a client's mic check decides).
public struct CaptureProbe: Sendable {
    /// Video frames decoded per layer to call it decodable.
    public var framesToDecode: Int
    public var silenceThresholdDbfs: Double

    public init(framesToDecode: Int = 5, silenceThresholdDbfs: Double = -60) {
        self.framesToDecode = framesToDecode
        self.silenceThresholdDbfs = silenceThresholdDbfs
    }

    /// Reads and validates the capture (a bad one throws the reader's error), then probes it.
    public func probe(directory: URL) throws(CaptureError) -> ProbeReport {
        probe(try CaptureFolder(directory).capture())
    }

    public func probe(_ capture: Capture) -> ProbeReport {
        var streams: [StreamProbe] = []
        for track in capture.tracks {
            if track.kind == .video {
                for layer in track.layers {
                    var entry = blank(track, quality: layer.quality.rawValue, file: layer.file,
                                      startOffsetMs: track.startOffsetMs(of: layer))
                    let timeline = probeVideo(capture.media(layer.file), into: &entry)
                    if entry.headersOnly != true { judge(timeline, against: PublishedMedia(track: track, in: capture), into: &entry) }
                    streams.append(entry)
                }
            } else if let file = track.file {
                var entry = blank(track, quality: nil, file: file, startOffsetMs: track.startOffsetMs)
                let timeline = probeAudio(capture.media(file), into: &entry)
                if entry.headersOnly != true { judge(timeline, against: PublishedMedia(track: track, in: capture), into: &entry) }
                streams.append(entry)
            }
        }
        return ProbeReport(sessionId: capture.sessionId, durationMs: capture.durationMs, streams: streams)
    }

    /// Media that ends this much before its track's published end is cut short.
    public static let truncationToleranceMs = 250

    /// Holds the file's packet times against when the track was published: ends early, or goes quiet inside.
    private func judge(_ timeline: PacketTimeline, against published: PublishedMedia, into entry: inout StreamProbe) {
        guard entry.opens, let first = timeline.first, let end = timeline.end else { return }
        func session(_ t: Double) -> Int { entry.startOffsetMs + MediaTime.ms(seconds: t - first) }
        entry.endMs = session(end)
        entry.publishedUntilMs = published.endMs
        if let until = published.endMs { entry.truncated = session(end) < until - Self.truncationToleranceMs }
        entry.gaps = timeline.gaps.map { ProbeGap(fromMs: session($0.from), toMs: session($0.to)) }
            .filter { published.overlapMs($0.fromMs, $0.toMs) > Int(PacketTimeline.gapThreshold * 1000) }
    }

    private func blank(_ track: Track, quality: String?, file: String, startOffsetMs: Int) -> StreamProbe {
        StreamProbe(trackId: track.id, participantId: track.participantId, source: track.source.rawValue,
                    quality: quality, file: file, startOffsetMs: startOffsetMs, opens: false, decodes: false)
    }

    /// Packets of sound read from media in object storage: about a second, enough to know it decodes.
    static let headerAudioPackets = 50

    private func open(_ media: MediaLocation, _ type: MediaType, into entry: inout StreamProbe) -> (Demuxer, StreamInfo)? {
        if case .object = media { entry.headersOnly = true }
        do {
            let demuxer = try Demuxer(media)
            guard let stream = demuxer.firstStream(ofType: type) else {
                entry.error = "no \(type) stream in \(demuxer.formatName)"
                return nil
            }
            entry.opens = true
            entry.codec = stream.codecName
            return (demuxer, stream)
        } catch {
            entry.error = error.description
            return nil
        }
    }

    /// Reads every packet (cheap) for length and first keyframe; decodes only the first few.
    @discardableResult
    private func probeVideo(_ media: MediaLocation, into entry: inout StreamProbe) -> PacketTimeline {
        var timeline = PacketTimeline()
        guard let (demuxer, stream) = open(media, .video, into: &entry) else { return timeline }
        let headersOnly = entry.headersOnly == true
        entry.width = stream.width
        entry.height = stream.height
        entry.frameRate = stream.frameRate?.doubleValue
        let seconds = stream.timeBase.doubleValue
        var packets = 0, decoded = 0
        var firstPts: Int64?, endPts: Int64?, firstKeyframePts: Int64?
        do {
            let decoder = try VideoDecoder(stream: stream, threadCount: 1)
            func receive() throws(MediaError) {
                while case .frame = try decoder.receive() { decoded += 1 }
            }
            while let packet = try demuxer.readPacket() {
                guard packet.streamIndex == stream.index else { continue }
                packets += 1
                timeline.add(packet)
                if let pts = packet.pts {
                    firstPts = min(firstPts ?? pts, pts)
                    endPts = max(endPts ?? pts, pts + packet.duration)
                    if packet.isKeyframe, firstKeyframePts == nil { firstKeyframePts = pts }
                }
                if decoded < framesToDecode {
                    try decoder.send(packet)
                    try receive()
                } else if headersOnly {
                    break
                }
            }
            if decoded < framesToDecode {
                try decoder.send(nil)
                try receive()
            }
            entry.decodes = decoded >= min(framesToDecode, packets) && decoded > 0
            if !entry.decodes { entry.error = "decoded \(decoded) of \(packets) packets" }
        } catch {
            entry.error = error.description
        }
        entry.packets = packets
        entry.decoded = decoded
        if let firstPts, let endPts { entry.durationSeconds = Double(endPts - firstPts) * seconds }
        if headersOnly { entry.durationSeconds = demuxer.duration }
        if let firstPts, let firstKeyframePts {
            entry.firstKeyframeMs = entry.startOffsetMs + MediaTime.ms(seconds: Double(firstKeyframePts - firstPts) * seconds)
        }
        return timeline
    }

    /// Decodes the whole track, as a mic check listens to all of it.
    @discardableResult
    private func probeAudio(_ media: MediaLocation, into entry: inout StreamProbe) -> PacketTimeline {
        var timeline = PacketTimeline()
        guard let (demuxer, stream) = open(media, .audio, into: &entry) else { return timeline }
        let enough = entry.headersOnly == true ? Self.headerAudioPackets : Int.max
        entry.sampleRate = stream.sampleRate
        entry.channels = stream.channels
        var level = AudioLevel()
        var packets = 0
        do {
            if stream.codecName == "opus" {
                let decoder = try OpusDecoder(stream: stream)
                while let packet = try demuxer.readPacket() {
                    guard packet.streamIndex == stream.index else { continue }
                    packets += 1
                    timeline.add(packet)
                    level.add(try decoder.decode(packet).interleaved)
                    if packets >= enough { break }
                }
            } else {
                let decoder = try AudioDecoder(stream: stream)
                func receive() throws(MediaError) {
                    while case .frame(let samples) = try decoder.receive() { level.add(samples.interleaved) }
                }
                while let packet = try demuxer.readPacket() {
                    guard packet.streamIndex == stream.index else { continue }
                    packets += 1
                    timeline.add(packet)
                    try decoder.send(packet)
                    try receive()
                    if packets >= enough { break }
                }
                try decoder.send(nil)
                try receive()
            }
            entry.decodes = level.count > 0
            if !entry.decodes { entry.error = "no audio samples decoded" }
        } catch {
            entry.error = error.description
        }
        let channels = max(1, stream.channels)
        entry.packets = packets
        entry.decoded = level.count / channels
        if stream.sampleRate > 0 { entry.durationSeconds = Double(level.count / channels) / Double(stream.sampleRate) }
        entry.rmsDbfs = level.rmsDbfs
        entry.peakDbfs = level.peakDbfs
        if let peak = level.peakDbfs, entry.headersOnly != true { entry.silent = peak < silenceThresholdDbfs }
        if entry.headersOnly == true { entry.durationSeconds = demuxer.duration }
        return timeline
    }
}
