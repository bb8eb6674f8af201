public import Foundation

/// Writes a VOD HLS rendition with libavformat's `hls` muxer: a playlist and
/// its segments (MPEG-TS or fragmented MP4) in one directory, typically one
/// H.264 stream and one AAC stream. Segments are cut at the first keyframe
/// after each `segmentDuration`, so every segment starts with a keyframe;
/// encode with a GOP of exactly that length to get even segments. The playlist
/// is written from a compact list of the segments (``HLSMediaPlaylist``), so a
/// session of a day costs no more memory than one of minutes but that list's
/// 25 bytes a segment.
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
    /// libavformat's own playlist, beside the segments: a window of the latest ones (a live playlist,
    /// rewritten as each segment closes), read into ``segments`` each time it changes, gone at the end.
    private let windowURL: URL
    private var windowSeen: (inode: UInt64, seconds: Int, nanoseconds: Int, size: Int64)?
    /// Every segment written so far, compactly; what the playlist a player reads is written from.
    private var segments = HLSMediaPlaylist()

    /// Segments in libavformat's window. A write can close several segments at once (the interleaving queue
    /// holds up to 10 s of packets), so the window is longer than 10 s of the shortest segments allowed (0.5 s).
    static let window = 32

    /// - Parameters:
    ///   - segmentFilePattern: file name with a printf-style `%d` counter;
    ///     defaults to `segment_%05d.ts` or `.m4s`.
    ///   - programDateTimeStart: when given, each segment gets an
    ///     `#EXT-X-PROGRAM-DATE-TIME` counted from this date (not from "now").
    ///   - playlistAsItGoes: the playlist is written as each segment is closed, not only at the end:
    ///     written as an EVENT playlist, made VOD at the end.
    public init(directory: URL, playlistName: String = "index.m3u8", segmentDuration: Double = 2,
                segmentType: SegmentType = .mpegts, segmentFilePattern: String? = nil,
                programDateTimeStart: Date? = nil, playlistAsItGoes: Bool = false) throws(MediaError) {
        self.directory = directory
        self.playlistAsItGoes = playlistAsItGoes
        playlistURL = directory.appendingPathComponent(playlistName)
        windowURL = directory.appendingPathComponent(".\(playlistName).window")
        self.programDateTimeStart = programDateTimeStart
        let pattern = segmentFilePattern ?? (segmentType == .mpegts ? "segment_%05d.ts" : "segment_%05d.m4s")
        var options = [
            "hls_time": String(segmentDuration),
            // No playlist type: a VOD or EVENT playlist would make libavformat keep every segment's record.
            "hls_list_size": String(Self.window),
            "hls_segment_type": segmentType.rawValue,
            "hls_segment_filename": directory.appendingPathComponent(pattern).path,
            "hls_flags": "independent_segments",
        ]
        if segmentType == .fmp4 { options["hls_fmp4_init_filename"] = "init.mp4" }
        self.options = options
        // A window an earlier muxer left here (a join started over) is not this one's.
        try? FileManager.default.removeItem(at: windowURL)
        muxer = try Muxer(url: windowURL, format: "hls")
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
        try readWindow()
    }

    /// Writes the last segment and the final playlist (VOD, with `#EXT-X-ENDLIST`), its program date times
    /// counted from `programDateTimeStart`.
    public func finish() throws(MediaError) {
        try muxer.finish()
        try readWindow(always: true)
        try? FileManager.default.removeItem(at: windowURL)
        try writePlaylist(ended: true)
    }

    /// Reads libavformat's window playlist when it has been rewritten (a segment closed: a new file, renamed
    /// into place), taking the segments it has not taken yet. One `stat` per packet otherwise. A rewrite the
    /// `stat` misses (two in one write, within the clock's tick, on a reused inode) is read at the next one:
    /// the window holds 32 segments. `always`: read it whatever the `stat` says (its last version).
    private func readWindow(always: Bool = false) throws(MediaError) {
        var info = stat()
        guard stat(windowURL.path, &info) == 0 else { return }
        let seen = (inode: UInt64(info.st_ino), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
                    size: Int64(info.st_size))
        if !always, let last = windowSeen, last == seen { return }
        windowSeen = seen
        let text: String
        do { text = try String(contentsOf: windowURL, encoding: .utf8) } catch {
            throw MediaError(.muxFailed, "cannot read '\(windowURL.path)': \(error.localizedDescription)")
        }
        if try segments.take(window: text) > 0, playlistAsItGoes { try writePlaylist(ended: false) }
    }

    private func writePlaylist(ended: Bool) throws(MediaError) {
        let text = segments.text(ended: ended, programDateTimeStart: programDateTimeStart, dateRanges: ended ? dateRanges : [])
        do {
            try Data(text.utf8).write(to: playlistURL, options: .atomic)
        } catch {
            throw MediaError.writing(playlistURL, error)
        }
    }
}
