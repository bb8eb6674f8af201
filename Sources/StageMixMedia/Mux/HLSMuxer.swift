public import Foundation

/// Writes a VOD HLS rendition with libavformat's `hls` muxer: a playlist and
/// its segments (MPEG-TS or fragmented MP4) in one directory, typically one
/// H.264 stream and one AAC stream. Segments are cut at the first keyframe
/// after each `segmentDuration`, so every segment starts with a keyframe;
/// encode with a GOP of exactly that length to get even segments.
public final class HLSMuxer: @unchecked Sendable {
    /// Segment container.
    public enum SegmentType: String, Sendable {
        case mpegts
        case fmp4
    }

    public let playlistURL: URL
    public let directory: URL
    private let muxer: Muxer
    private let options: [String: String]
    private let programDateTimeStart: Date?
    private let playlistAsItGoes: Bool
    /// `#EXT-X-DATERANGE` tags placed in the final playlist (they need the program date times).
    public var dateRanges: [HLSDateRange] = []

    /// - Parameters:
    ///   - segmentFilePattern: file name with a printf-style `%d` counter;
    ///     defaults to `segment_%05d.ts` or `.m4s`.
    ///   - programDateTimeStart: when given, each segment gets an
    ///     `#EXT-X-PROGRAM-DATE-TIME` counted from this date (not from "now").
    ///   - playlistAsItGoes: the playlist is written as each segment is closed, not only at the end
    ///     (libavformat writes a VOD playlist once): written as an EVENT playlist, made VOD at the end.
    public init(directory: URL, playlistName: String = "index.m3u8", segmentDuration: Double = 2,
                segmentType: SegmentType = .mpegts, segmentFilePattern: String? = nil,
                programDateTimeStart: Date? = nil, playlistAsItGoes: Bool = false) throws(MediaError) {
        self.directory = directory
        self.playlistAsItGoes = playlistAsItGoes
        playlistURL = directory.appendingPathComponent(playlistName)
        self.programDateTimeStart = programDateTimeStart
        let pattern = segmentFilePattern ?? (segmentType == .mpegts ? "segment_%05d.ts" : "segment_%05d.m4s")
        var options = [
            "hls_time": String(segmentDuration),
            "hls_playlist_type": playlistAsItGoes ? "event" : "vod",
            "hls_list_size": "0",
            "hls_segment_type": segmentType.rawValue,
            "hls_segment_filename": directory.appendingPathComponent(pattern).path,
            "hls_flags": programDateTimeStart == nil ? "independent_segments" : "independent_segments+program_date_time",
        ]
        if segmentType == .fmp4 { options["hls_fmp4_init_filename"] = "init.mp4" }
        self.options = options
        muxer = try Muxer(url: playlistURL, format: "hls")
    }

    /// Adds the video stream; returns its index.
    public func addStream(from encoder: VideoEncoder) throws(MediaError) -> Int {
        try muxer.addStream(from: encoder)
    }

    /// Adds the audio stream; returns its index.
    public func addStream(from encoder: AudioEncoder) throws(MediaError) -> Int {
        try muxer.addStream(from: encoder)
    }

    /// Adds a stream with the parameters of a demuxed one (packets encoded elsewhere, in `timeBase`,
    /// the stream's when nil); returns its index.
    public func addStream(copying stream: StreamInfo, timeBase: Rational? = nil) throws(MediaError) -> Int {
        try muxer.addStream(copying: stream, timeBase: timeBase)
    }

    public func writeHeader() throws(MediaError) {
        try muxer.writeHeader(options: options)
    }

    public func write(_ packet: Packet, toStream index: Int) throws(MediaError) {
        try muxer.write(packet, toStream: index)
    }

    /// Writes the last segment and the final playlist (with `#EXT-X-ENDLIST`),
    /// then restamps its program date times from `programDateTimeStart`.
    public func finish() throws(MediaError) {
        try muxer.finish()
        guard programDateTimeStart != nil || playlistAsItGoes else { return }
        do {
            var text = try String(contentsOf: playlistURL, encoding: .utf8)
            if playlistAsItGoes { text = text.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:EVENT", with: "#EXT-X-PLAYLIST-TYPE:VOD") }
            if let start = programDateTimeStart { text = HLSPlaylistDates.rewriting(text, start: start, dateRanges: dateRanges) }
            try text.write(to: playlistURL, atomically: true, encoding: .utf8)
        } catch {
            throw MediaError(.muxFailed, "cannot restamp program date times in '\(playlistURL.path)': \(error)")
        }
    }
}
