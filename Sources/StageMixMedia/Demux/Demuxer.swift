public import Foundation
internal import CFFmpeg
public import StageMixStorage

/// Reads packets from any container libavformat can open (WebM, Matroska,
/// MP4, Ogg, IVF, MPEG-TS). Use from one thread at a time.
public final class Demuxer: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The file or URL this demuxer reads, for messages.
    public let location: String
    /// The container's streams, in index order.
    public let streams: [StreamInfo]

    /// What this demuxer may cost (deadlines; the picture size stream probing may decode).
    public let limits: MediaLimits
    private let watch = MediaWatch()
    /// The object read, for media in a bucket; FFmpeg reads through its I/O context.
    private let object: ObjectInput?

    /// Opens media wherever it is: a file, or an object in a bucket read by ranged GETs.
    public convenience init(_ media: MediaLocation, limits: MediaLimits = .standard) throws(MediaError) {
        switch media {
        case .file(let url): try self.init(url: url, limits: limits)
        case .object(let path, let objects): try self.init(object: ObjectInput(relativePath: path, in: objects), limits: limits)
        }
    }

    private init(object: ObjectInput, limits: MediaLimits) throws(MediaError) {
        self.object = object
        location = object.location.description
        self.limits = limits
        (context, streams) = try Self.open(location: location, watch: watch, limits: limits, object: object)
    }

    /// Opens `url` (a file URL or any URL libavformat understands) and probes its streams.
    ///
    /// A file URL must name a regular file: a FIFO or device could block `open(2)` itself, where no
    /// deadline reaches, so it is refused before FFmpeg sees it. Opening and probing share the
    /// `openSeconds` deadline; stream probing decodes no picture over `maxPixels`.
    public init(url: URL, limits: MediaLimits = .standard) throws(MediaError) {
        location = url.isFileURL ? url.path : url.absoluteString
        self.limits = limits
        object = nil
        if url.isFileURL { try Self.checkRegularFile(location) }
        (context, streams) = try Self.open(location: location, watch: watch, limits: limits, object: nil)
    }

    /// Opens and probes: the format context and its streams. An object is read through its I/O
    /// context; a failure of the store is reported as the store's error, not as damaged media.
    private static func open(location: String, watch: MediaWatch, limits: MediaLimits,
                             object: ObjectInput?) throws(MediaError) -> (UnsafeMutablePointer<AVFormatContext>?, [StreamInfo]) {
        guard let ctx = avformat_alloc_context() else { throw .outOfMemory("format context") }
        cff_format_watch(ctx, watch.pointer)
        if let object {
            ctx.pointee.pb = object.context
            ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var opening: UnsafeMutablePointer<AVFormatContext>? = ctx
        watch.arm(seconds: limits.openSeconds)
        defer { watch.disarm() }
        func failure(_ ret: Int32, _ code: MediaError.Code, _ context: String) -> MediaError {
            if let stored = object?.failure { return MediaError(.storageFailed, "\(context): \(stored)") }
            return Self.error(ret, code, context)
        }
        let opened = avformat_open_input(&opening, object == nil ? location : "", nil, nil)  // frees the context on failure
        if opened < 0 {
            throw failure(opened, .openFailed, "cannot open '\(location)'")
        }
        var context = opening
        let probed = Self.findStreamInfo(ctx, maxPixels: limits.maxPixels)
        if probed < 0 {
            avformat_close_input(&context)
            throw failure(probed, .invalidData, "cannot read stream info of '\(location)'")
        }
        var found: [StreamInfo] = []
        for i in 0..<Int(ctx.pointee.nb_streams) {
            do {
                found.append(try StreamInfo(stream: ctx.pointee.streams[i]!))
            } catch {
                avformat_close_input(&context)
                throw error
            }
        }
        return (context, found)
    }

    /// Probing may decode a picture per stream; each probing decoder gets the `max_pixels` limit.
    private static func findStreamInfo(_ ctx: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int) -> Int32 {
        let count = Int(ctx.pointee.nb_streams)
        guard count > 0 else { return avformat_find_stream_info(ctx, nil) }
        var options = [OpaquePointer?](repeating: nil, count: count)
        for i in 0..<count { av_dict_set(&options[i], "max_pixels", String(maxPixels), 0) }
        defer { for i in 0..<count { av_dict_free(&options[i]) } }
        return options.withUnsafeMutableBufferPointer { avformat_find_stream_info(ctx, $0.baseAddress) }
    }

    /// Only a regular file (or a link to one) is opened as media.
    static func checkRegularFile(_ path: String) throws(MediaError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            let reason = String(cString: strerror(code))
            if code == ENOENT || code == ENOTDIR { throw MediaError(.notFound, "cannot open '\(path)': \(reason)") }
            throw MediaError(.openFailed, "cannot open '\(path)': \(reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFIFO: kind = "a FIFO"
            case S_IFDIR: kind = "a directory"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            throw MediaError(.notRegularFile, "'\(path)' is \(kind), not a media file")
        }
    }

    /// An FFmpeg failure, told apart when it was our deadline that stopped it.
    private static func error(_ ret: Int32, _ code: MediaError.Code, _ context: String) -> MediaError {
        if ret == cff_AVERROR_EXIT() { return MediaError.ffmpeg(.timedOut, "\(context) in time", ret) }
        return MediaError.ffmpeg(code, context, ret)
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

    /// Errors the container reader has logged so far: damage it stepped over (an Ogg page whose CRC
    /// does not match is dropped and only logged), so a caller can tell lost packets from a quiet gap.
    public var loggedErrors: Int { watch.errors }

    /// The first stream of the given type, if any.
    public func firstStream(ofType type: MediaType) -> StreamInfo? {
        streams.first { $0.mediaType == type }
    }

    /// The next packet of any stream, or nil at the end of the file.
    public func readPacket() throws(MediaError) -> Packet? {
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        watch.arm(seconds: limits.readSeconds)
        let ret = av_read_frame(context, p)
        watch.disarm()
        if ret < 0, let stored = object?.failure {
            // The store failed, not the media: never mistaken for the end of the file or damage.
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
            throw MediaError(.storageFailed, "cannot read packet from '\(location)': \(stored)")
        }
        if ret == cff_AVERROR_EOF() {
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
            return nil
        }
        if ret < 0 {
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
            throw Self.error(ret, .invalidData, "cannot read packet from '\(location)'")
        }
        // Read the live AVStream: MPEG-TS may add streams after the probe.
        let tb = Rational(context!.pointee.streams[Int(p.pointee.stream_index)]!.pointee.time_base)
        return Packet(taking: p, timeBase: tb)
    }

    /// Seeks so the next packets start at the keyframe at or before `seconds` (of `streamIndex`, or of
    /// the default stream when nil); when there is none, as in a file that starts without a keyframe,
    /// at the first keyframe after it.
    public func seek(toSeconds seconds: Double, streamIndex: Int? = nil) throws(MediaError) {
        let index = Int32(streamIndex ?? -1)
        let target: Int64
        if let streamIndex {
            let tb = streams[streamIndex].timeBase.doubleValue
            target = Int64((seconds / tb).rounded(.down))
        } else {
            target = Int64((seconds * Double(AV_TIME_BASE)).rounded(.down))
        }
        watch.arm(seconds: limits.readSeconds)
        defer { watch.disarm() }
        var ret = av_seek_frame(context, index, target, AVSEEK_FLAG_BACKWARD)
        if ret < 0, ret != cff_AVERROR_EXIT() {
            watch.arm(seconds: limits.readSeconds)
            ret = av_seek_frame(context, index, target, 0)
        }
        if ret < 0 { throw Self.error(ret, .seekFailed, "cannot seek '\(location)' to \(seconds) s") }
    }
}
