import Foundation
import StageMixPlan
import StageMixOptions
import StageMixMedia
import StageMixPublishing
import StageMixTime

/// The containers of a composition and what feeds them besides the video: the HLS playlists
/// and segments, `composition.mp4`, and the audio's AAC encoder. The video streams come in made
/// elsewhere: from the renditions' encoders (``CanvasEncoders``) in a whole run, from the chunks'
/// files when a chunked run joins them; each stream's packets take ``videoRoutes``.
///
/// One rendition (the default) writes `hls/index.m3u8` with video and audio in the same segments.
/// A ladder writes `hls/index.m3u8` as a master playlist over `hls/WxH/index.m3u8` (video only,
/// one per rendition) and `hls/audio/index.m3u8` (the one audio rendition); every rendition gets
/// its keyframes at the same instants, so their segments start together. `composition.mp4` carries
/// the largest rendition.
final class CompositionOutputs {
    let audio: AudioOutput
    /// Where each video stream's packets go, in the order of the streams given.
    private(set) var videoRoutes: [PacketRoutes]
    private let hls: [HLSMuxer]
    private let file: Muxer?
    private let video: [VideoStream]
    private let hlsDirectory: URL
    private let audioPlaylist: URL?
    private let segmentFormat: HLSMuxer.SegmentType
    /// A ladder's audio-only playlist, which ends with the video.
    private var audioOnly: HLSMuxer?

    /// Whether the encoders must put SPS/PPS out of band: MP4 and fMP4 want them there, and a
    /// ladder's master playlist reads each video's codec from them.
    static func needsGlobalHeader(_ settings: ComposeSettings, mp4: Bool) -> Bool {
        !settings.renditions.isEmpty || settings.segmentFormat == .fmp4 || mp4
    }

    /// The session's AAC encoder: the one a chunked run's audio work encodes with is the one the join's
    /// containers take their audio stream's parameters from.
    static func audioEncoder(_ settings: ComposeSettings, mp4: Bool) throws(MediaError) -> AudioEncoder {
        try AudioEncoder(sampleRate: MediaTime.sampleRate, channels: 2, bitrate: settings.audioBitrate,
                         globalHeader: needsGlobalHeader(settings, mp4: mp4))
    }

    /// `sessionEnded`: false for a followed run's containers, opened before the session's end is known
    /// (``sessionEnded(durationMs:stageEvents:)`` tells it then).
    init(plan: CompositionPlan, settings: ComposeSettings, stageEvents: [StageEvent], video: [VideoStream],
         hlsDirectory: URL, mp4: URL?, sessionEnded: Bool = true) throws {
        self.hlsDirectory = hlsDirectory
        self.video = video
        segmentFormat = settings.segmentFormat
        let ladder = !settings.renditions.isEmpty
        videoRoutes = video.map { _ in PacketRoutes() }
        audio = AudioOutput(encoder: try Self.audioEncoder(settings, mp4: mp4 != nil))
        let dateRanges = Self.dateRanges(stageEvents)
        func playlist(in directory: URL) throws -> HLSMuxer {
            let muxer = try HLSMuxer(directory: directory, segmentDuration: settings.segmentSeconds,
                                     segmentType: settings.segmentFormat, programDateTimeStart: plan.startedAt,
                                     playlistAsItGoes: !sessionEnded)
            muxer.dateRanges = dateRanges
            return muxer
        }
        if ladder {
            var muxers: [HLSMuxer] = []
            for (index, stream) in video.enumerated() {
                let directory = hlsDirectory.appendingPathComponent(stream.rendition.name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                let muxer = try playlist(in: directory)
                videoRoutes[index].append(muxer, stream: try stream.addStream(to: muxer))
                muxers.append(muxer)
            }
            let directory = hlsDirectory.appendingPathComponent(OutputFiles.audioRendition)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            let muxer = try playlist(in: directory)
            // AAC codes whole frames of 1,024 samples and the playlist starts at the encoder's priming, so
            // the last frame starts after the video's end there: it would be a 21 ms segment of its own. It
            // is left out, and the audio rendition ends with the video (less at most that one frame, the
            // session's last instant; the single playlist and the MP4 keep every sample).
            audio.routes.append(muxer, stream: try muxer.addStream(from: audio.encoder),
                                endingAfter: sessionEnded ? Int64(plan.durationMs) * Int64(MediaTime.sampleRate) / 1000 : nil)
            muxers.append(muxer)
            audioOnly = muxer
            hls = muxers
            audioPlaylist = muxer.playlistURL
        } else {
            let muxer = try playlist(in: hlsDirectory)
            videoRoutes[0].append(muxer, stream: try video[0].addStream(to: muxer))
            audio.routes.append(muxer, stream: try muxer.addStream(from: audio.encoder))
            hls = [muxer]
            audioPlaylist = nil
        }
        for muxer in hls { try muxer.writeHeader() }

        // Progressive MP4 of the largest rendition: `faststart` moves the index (moov) before the
        // media once the file is whole; the stage's events are its chapters.
        file = try mp4.map { url throws(MediaError) in try Muxer(url: url, format: "mp4") }
        if let file {
            videoRoutes[0].append(file, stream: try video[0].addStream(to: file))
            audio.routes.append(file, stream: try file.addStream(from: audio.encoder))
            for chapter in Self.chapters(stageEvents, durationMs: plan.durationMs) {
                try file.addChapter(start: MediaTime.seconds(ms: chapter.startMs), end: MediaTime.seconds(ms: chapter.endMs), title: chapter.title)
            }
            try file.writeHeader(options: ["movflags": "+faststart"])
        }
    }

    /// A followed run (`compose --follow`) opens its containers before the session has ended: once it
    /// has, and before the last chunks are joined, this gives them what only the end tells: where the
    /// audio-only playlist ends, the stage's events as date ranges, and the MP4's chapters (which the
    /// MP4 muxer writes in its trailer when it had none at the header).
    func sessionEnded(durationMs: Int, stageEvents: [StageEvent]) throws {
        if let audioOnly { audio.routes.end(audioOnly, after: Int64(durationMs) * Int64(MediaTime.sampleRate) / 1000) }
        let dateRanges = Self.dateRanges(stageEvents)
        for muxer in hls { muxer.dateRanges = dateRanges }
        if let file {
            for chapter in Self.chapters(stageEvents, durationMs: durationMs) {
                try file.addChapter(start: MediaTime.seconds(ms: chapter.startMs), end: MediaTime.seconds(ms: chapter.endMs), title: chapter.title)
            }
        }
    }

    /// After the video's last packets: flushes the audio, closes every container, and writes the
    /// master playlist of a ladder.
    func finish() throws {
        try audio.finish()
        for muxer in hls { try muxer.finish() }
        try file?.finish()
        if let audioPlaylist { try writeMasterPlaylist(audio: audioPlaylist) }
    }

    private func writeMasterPlaylist(audio: URL) throws {
        let text = try masterPlaylist(audio: audio)
        let url = hlsDirectory.appendingPathComponent(OutputFiles.playlist)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw MediaError.writing(url, error)
        }
    }

    /// A ladder's master playlist as the media playlists stand now (nil for one rendition): a
    /// followed run's live playlist has one before the end, its bandwidths measured so far.
    func masterPlaylist() throws -> String? {
        try audioPlaylist.map { try masterPlaylist(audio: $0) }
    }

    private func masterPlaylist(audio: URL) throws -> String {
        let audioRate = try MediaPlaylistBitrate.measure(audio)
        var variants: [MasterPlaylist.Variant] = []
        for (stream, muxer) in zip(video, hls) {
            guard let codec = stream.codecString else {
                throw MediaError(.muxFailed, "no H.264 sequence parameter set in rendition \(stream.rendition.name)'s header")
            }
            variants.append(MasterPlaylist.Variant(
                uri: "\(stream.rendition.name)/\(muxer.playlistURL.lastPathComponent)", width: stream.rendition.width,
                height: stream.rendition.height, fps: stream.fps,
                videoCodec: codec, bitrate: try MediaPlaylistBitrate.measure(muxer.playlistURL) + audioRate))
        }
        return MasterPlaylist(audioURI: "audio/\(audio.lastPathComponent)", variants: variants,
                              version: segmentFormat == .fmp4 ? 7 : 6).text
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
