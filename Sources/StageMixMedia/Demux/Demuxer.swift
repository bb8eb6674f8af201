import Foundation
internal import CFFmpeg

/// Reads packets from any container libavformat can open (WebM, Matroska,
/// MP4, Ogg, IVF, MPEG-TS). Use from one thread at a time.
public final class Demuxer: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The file or URL this demuxer reads, for messages.
    public let location: String
    /// The container's streams, in index order.
    public let streams: [StreamInfo]

    /// Opens `url` (a file URL or any URL libavformat understands) and probes its streams.
    public init(url: URL) throws(MediaError) {
        location = url.isFileURL ? url.path : url.absoluteString
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&ctx, location, nil, nil)
        if opened < 0 {
            throw MediaError.ffmpeg(.openFailed, "cannot open '\(location)'", opened)
        }
        context = ctx
        let probed = avformat_find_stream_info(ctx, nil)
        if probed < 0 {
            avformat_close_input(&context)
            throw MediaError.ffmpeg(.invalidData, "cannot read stream info of '\(location)'", probed)
        }
        var found: [StreamInfo] = []
        for i in 0..<Int(ctx!.pointee.nb_streams) {
            do {
                found.append(try StreamInfo(stream: ctx!.pointee.streams[i]!))
            } catch {
                avformat_close_input(&context)
                throw error
            }
        }
        streams = found
    }

    /// Convenience for a file path.
    public convenience init(path: String) throws(MediaError) {
        try self.init(url: URL(fileURLWithPath: path))
    }

    deinit {
        avformat_close_input(&context)
    }

    /// The container's short format name(s), e.g. "matroska,webm" or "ogg".
    public var formatName: String {
        String(cString: context!.pointee.iformat.pointee.name)
    }

    /// Container duration in seconds, when known.
    public var duration: Double? {
        let d = context!.pointee.duration
        return d == cff_AV_NOPTS_VALUE() ? nil : Double(d) / Double(AV_TIME_BASE)
    }

    /// The first stream of the given type, if any.
    public func firstStream(ofType type: MediaType) -> StreamInfo? {
        streams.first { $0.mediaType == type }
    }

    /// The next packet of any stream, or nil at the end of the file.
    public func readPacket() throws(MediaError) -> Packet? {
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        let ret = av_read_frame(context, p)
        if ret == cff_AVERROR_EOF() {
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
            return nil
        }
        if ret < 0 {
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
            throw MediaError.ffmpeg(.invalidData, "cannot read packet from '\(location)'", ret)
        }
        // Read the live AVStream: MPEG-TS may add streams after the probe.
        let tb = Rational(context!.pointee.streams[Int(p.pointee.stream_index)]!.pointee.time_base)
        return Packet(taking: p, timeBase: tb)
    }

    /// Seeks so the next packets start at the keyframe at or before `seconds`
    /// (of `streamIndex`, or of the default stream when nil).
    public func seek(toSeconds seconds: Double, streamIndex: Int? = nil) throws(MediaError) {
        let index = Int32(streamIndex ?? -1)
        let target: Int64
        if let streamIndex {
            let tb = streams[streamIndex].timeBase.doubleValue
            target = Int64((seconds / tb).rounded(.down))
        } else {
            target = Int64((seconds * Double(AV_TIME_BASE)).rounded(.down))
        }
        try ffCheck(av_seek_frame(context, index, target, AVSEEK_FLAG_BACKWARD), .seekFailed,
                    "cannot seek '\(location)' to \(seconds) s")
    }
}
