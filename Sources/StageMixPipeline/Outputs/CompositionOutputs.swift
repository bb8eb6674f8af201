import Foundation
import StageMixPlan
import StageMixOptions
import StageMixMedia
import StageMixPublishing
import StageMixTime

/// Every output of a composition, made from its settings: the video renditions (each a sink of
/// the composed canvases), the audio, the thumbnails, and the containers their packets go to. The
/// pipeline composes each frame once and hands it here; what is written, and in how many sizes,
/// is decided here alone.
///
/// One rendition (the default) writes `hls/index.m3u8` with video and audio in the same segments.
/// A ladder writes `hls/index.m3u8` as a master playlist over `hls/WxH/index.m3u8` (video only,
/// one per rendition) and `hls/audio/index.m3u8` (the one audio rendition); every rendition gets
/// its keyframes at the same instants, so their segments start together. The renditions after the
/// first scale and encode on threads of their own. `composition.mp4` carries the largest rendition.
final class CompositionOutputs {
    private let inline: [any CanvasSink]
    private let threads: [SinkThread]
    let audio: AudioOutput
    private let hls: [HLSMuxer]
    private let file: Muxer?
    private let renditions: [VideoRendition]
    private let hlsDirectory: URL
    private let audioPlaylist: URL?
    private let segmentFormat: HLSMuxer.SegmentType

    init(plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent],
         hlsDirectory: URL, mp4: URL?, pictures: URL?) throws {
        self.hlsDirectory = hlsDirectory
        segmentFormat = settings.segmentFormat
        let ladder = !settings.renditions.isEmpty
        let wanted = ladder ? settings.renditions
            : [Rendition(width: plan.canvas.width, height: plan.canvas.height, rate: settings.videoRate)]
        let keyframeEvery = RenditionSpec.keyframeInterval(canvasFps: plan.fps, segmentSeconds: settings.segmentSeconds)
        // A ladder's master playlist names each video's codec, read from its global header.
        let globalHeader = ladder || settings.segmentFormat == .fmp4 || mp4 != nil
        renditions = try wanted.map {
            try VideoRendition($0, canvas: (plan.canvas.width, plan.canvas.height), canvasFps: plan.fps,
                               keyframeEvery: keyframeEvery, settings: settings, globalHeader: globalHeader)
        }
        audio = AudioOutput(encoder: try AudioEncoder(sampleRate: MediaTime.sampleRate, channels: 2,
                                                      bitrate: settings.audioBitrate, globalHeader: globalHeader))
        let dateRanges = Self.dateRanges(stageEvents)
        func playlist(in directory: URL) throws -> HLSMuxer {
            let muxer = try HLSMuxer(directory: directory, segmentDuration: settings.segmentSeconds,
                                     segmentType: settings.segmentFormat, programDateTimeStart: plan.startedAt)
            muxer.dateRanges = dateRanges
            return muxer
        }
        if ladder {
            var muxers: [HLSMuxer] = []
            for rendition in renditions {
                let directory = hlsDirectory.appendingPathComponent(rendition.rendition.name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                let muxer = try playlist(in: directory)
                rendition.routes.append(muxer, stream: try muxer.addStream(from: rendition.encoder))
                muxers.append(muxer)
            }
            let directory = hlsDirectory.appendingPathComponent(OutputFiles.audioRendition)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            let muxer = try playlist(in: directory)
            // AAC codes whole frames of 1,024 samples: a last packet starting at the video's end would be
            // a 21 ms segment of its own, holding only the encoder's padding. It ends where the video does.
            audio.routes.append(muxer, stream: try muxer.addStream(from: audio.encoder),
                                endingAfter: Int64(plan.durationMs) * Int64(MediaTime.sampleRate) / 1000)
            muxers.append(muxer)
            hls = muxers
            audioPlaylist = muxer.playlistURL
        } else {
            let muxer = try playlist(in: hlsDirectory)
            renditions[0].routes.append(muxer, stream: try muxer.addStream(from: renditions[0].encoder))
            audio.routes.append(muxer, stream: try muxer.addStream(from: audio.encoder))
            hls = [muxer]
            audioPlaylist = nil
        }
        for muxer in hls { try muxer.writeHeader() }

        // Progressive MP4 of the largest rendition: `faststart` moves the index (moov) before the
        // media once the file is whole; the stage's events are its chapters.
        file = try mp4.map { url throws(MediaError) in try Muxer(url: url, format: "mp4") }
        if let file {
            renditions[0].routes.append(file, stream: try file.addStream(from: renditions[0].encoder))
            audio.routes.append(file, stream: try file.addStream(from: audio.encoder))
            for chapter in Self.chapters(stageEvents, durationMs: plan.durationMs) {
                try file.addChapter(start: MediaTime.seconds(ms: chapter.startMs), end: MediaTime.seconds(ms: chapter.endMs), title: chapter.title)
            }
            try file.writeHeader(options: ["movflags": "+faststart"])
        }

        let thumbnails = try settings.thumbnailSeconds.flatMap { seconds in
            try pictures.map { try ThumbnailWriter(directory: $0, plan: plan, seconds: seconds) }
        }
        inline = [renditions[0]] + (thumbnails.map { [$0] } ?? [])
        threads = renditions.dropFirst().map { SinkThread($0, name: "stagemix-\($0.rendition.name)") }
    }

    /// Hands composed frame `index` to every sink; `giveBack` gets the canvas once all have taken it.
    func take(_ canvas: CanvasFrame, index: Int, giveBack: @escaping (CanvasFrame) -> Void) throws {
        let lease = CanvasLease(canvas, index: index, holders: threads.count + 1, giveBack: giveBack)
        defer { lease.release() }
        // The threads first, so that they scale and encode while this thread does. Each gets the
        // lease (and lets go of it) even when another has failed, so the canvas always goes back.
        var failure: (any Error)?
        for thread in threads {
            do { try thread.post(lease) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        for sink in inline { try sink.take(canvas, index: index) }
    }

    /// Flushes every encoder, closes every container, and writes the master playlist of a ladder.
    func finish() throws {
        for sink in inline { try sink.finish() }
        for thread in threads { try thread.finish() }
        try audio.finish()
        for muxer in hls { try muxer.finish() }
        try file?.finish()
        if let audioPlaylist { try writeMasterPlaylist(audio: audioPlaylist) }
    }

    /// Stops the rendition threads and waits for them, dropping what they have not taken; every way
    /// out of the pipeline goes through here (after `finish`, they have ended already).
    func stop() {
        for thread in threads { thread.join(abandoning: true) }
    }

    private func writeMasterPlaylist(audio: URL) throws {
        let audioRate = try MediaPlaylistBitrate.measure(audio)
        var variants: [MasterPlaylist.Variant] = []
        for (rendition, muxer) in zip(renditions, hls) {
            guard let codec = rendition.encoder.codecString else {
                throw MediaError(.muxFailed, "no H.264 sequence parameter set in rendition \(rendition.rendition.name)'s header")
            }
            let settings = rendition.encoder.settings
            variants.append(MasterPlaylist.Variant(
                uri: "\(rendition.rendition.name)/\(muxer.playlistURL.lastPathComponent)", width: settings.width,
                height: settings.height, fps: Int(settings.frameRate.numerator / max(1, settings.frameRate.denominator)),
                videoCodec: codec, bitrate: try MediaPlaylistBitrate.measure(muxer.playlistURL) + audioRate))
        }
        let text = MasterPlaylist(audioURI: "audio/\(audio.lastPathComponent)", variants: variants,
                                  version: segmentFormat == .fmp4 ? 7 : 6).text
        let url = hlsDirectory.appendingPathComponent(OutputFiles.playlist)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw MediaError(.muxFailed, "cannot write '\(url.path)': \(error.localizedDescription)")
        }
    }

    /// The stage's events as `EXT-X-DATERANGE` tags, in every media playlist.
    static func dateRanges(_ events: [StageEvent]) -> [HLSDateRange] {
        events.enumerated().map { index, event in
            HLSDateRange(id: "stage-\(index + 1)", classID: "dev.stagemix.stage", offset: MediaTime.seconds(ms: event.atMs),
                         attributes: [("X-EVENT", event.kind.rawValue), ("X-PARTICIPANT", event.participantId), ("X-NAME", event.name)]
                            + (event.reason.map { [("X-REASON", $0)] } ?? []))
        }
    }

    /// MP4 chapters from stage events: one at each instant something happened (the events of one
    /// instant share it, their titles joined), running to the next, and "Start" before the first.
    static func chapters(_ events: [StageEvent], durationMs: Int) -> [(startMs: Int, endMs: Int, title: String)] {
        var titles: [(Int, [String])] = []
        for event in events where (0..<durationMs).contains(event.atMs) {
            if titles.last?.0 == event.atMs { titles[titles.count - 1].1.append(event.title) } else { titles.append((event.atMs, [event.title])) }
        }
        if titles.isEmpty { return [] }
        if titles[0].0 > 0 { titles.insert((0, ["Start"]), at: 0) }
        return titles.enumerated().map { index, entry in
            (entry.0, index + 1 < titles.count ? titles[index + 1].0 : durationMs, entry.1.joined(separator: "; "))
        }
    }
}
