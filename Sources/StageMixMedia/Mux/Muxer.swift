public import Foundation
import StageMixTime
internal import CFFmpeg

/// Writes encoded packets into a container file (webm, matroska, ogg, mp4,
/// ivf, mpegts, or anything libavformat can write). Add streams, write the
/// header, write packets, then `finish()` writes the trailer.
public final class Muxer: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// The output path, for messages.
    public let location: String
    private var headerWritten = false
    private var finished = false
    /// Every file the muxer (and a muxer it nests, as HLS does) opens, closes and fails to write.
    private let watch = OutputWatch()

    /// Creates `url`; the container comes from `format` ("webm", "ogg", "mp4" ...)
    /// or, when nil, from the file extension.
    public init(url: URL, format: String? = nil) throws(MediaError) {
        location = url.isFileURL ? url.path : url.absoluteString
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let ret = avformat_alloc_output_context2(&ctx, nil, format, location)
        guard ret >= 0, let ctx else {
            throw MediaError.ffmpeg(.unsupportedCodec, "no muxer for '\(location)' (format \(format ?? "from extension"))", ret)
        }
        context = ctx
        watch.install(on: ctx)
        if ctx.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let opened = avio_open(&ctx.pointee.pb, location, AVIO_FLAG_WRITE)
            if opened < 0 {
                avformat_free_context(ctx)
                context = nil
                throw MediaError.ffmpeg(.openFailed, "cannot create '\(location)'", opened, path: location)
            }
        }
    }

    deinit {
        guard let context else { return }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Adds a stream carrying `encoder`'s output; returns its index.
    public func addStream(from encoder: VideoEncoder) throws(MediaError) -> Int {
        try addStream(parameters: encoder.parameters.pointer, timeBase: encoder.timeBase)
    }

    /// Adds a stream carrying `encoder`'s output; returns its index.
    public func addStream(from encoder: AudioEncoder) throws(MediaError) -> Int {
        try addStream(parameters: encoder.parameters.pointer, timeBase: encoder.timeBase)
    }

    /// Adds an Opus stream for packets from `encoder` (libopus), with its OpusHead.
    public func addStream(from encoder: OpusEncoder) throws(MediaError) -> Int {
        try addOpusStream(channels: encoder.channels, header: encoder.header, preSkip: encoder.preSkip)
    }

    /// Adds an Opus stream from explicit parameters: 48 kHz, `channels`, the
    /// OpusHead `header` as extradata and `preSkip` as the initial padding.
    public func addOpusStream(channels: Int, header: [UInt8], preSkip: Int) throws(MediaError) -> Int {
        guard let par = avcodec_parameters_alloc() else { throw .outOfMemory("codec parameters") }
        defer {
            var p: UnsafeMutablePointer<AVCodecParameters>? = par
            avcodec_parameters_free(&p)
        }
        par.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        par.pointee.codec_id = AV_CODEC_ID_OPUS
        par.pointee.sample_rate = Int32(MediaTime.sampleRate)
        av_channel_layout_default(&par.pointee.ch_layout, Int32(channels))
        par.pointee.initial_padding = Int32(preSkip)
        par.pointee.seek_preroll = 3840  // 80 ms, RFC 7845's recommended decoder pre-roll
        (par.pointee.extradata, par.pointee.extradata_size) = try makeExtradata(header)
        return try addStream(parameters: par, timeBase: Rational(1, Int32(MediaTime.sampleRate)))
    }

    /// Adds a video stream for already-encoded packets of `codec`, `width`x`height` as the container's
    /// nominal size, timestamps in `timeBase`. No extradata: VP8/VP9 need none, H.264 goes in-band (Annex B).
    public func addVideoStream(codec: VideoCodecID, width: Int, height: Int, timeBase: Rational) throws(MediaError) -> Int {
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw MediaError(.invalidArgument, "\(location): video stream of \(width)x\(height)")
        }
        guard let par = avcodec_parameters_alloc() else { throw .outOfMemory("codec parameters") }
        defer {
            var p: UnsafeMutablePointer<AVCodecParameters>? = par
            avcodec_parameters_free(&p)
        }
        par.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        par.pointee.codec_id = codec.av
        par.pointee.width = Int32(width)
        par.pointee.height = Int32(height)
        par.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        return try addStream(parameters: par, timeBase: timeBase)
    }

    /// Adds a stream with the same codec parameters as a demuxed one (remuxing), its packets in
    /// `timeBase` (the demuxed stream's when nil).
    public func addStream(copying stream: StreamInfo, timeBase: Rational? = nil) throws(MediaError) -> Int {
        try addStream(parameters: stream.parameters.pointer, timeBase: timeBase ?? stream.timeBase)
    }

    /// Marks a video stream to be shown turned (a display matrix, as a phone's MP4 carries one), before
    /// the header. Containers that keep no display matrix (MPEG-TS, and Matroska in FFmpeg 5) drop it.
    public func setOrientation(_ orientation: DisplayOrientation, ofStream index: Int) throws(MediaError) {
        guard let context, !headerWritten, index >= 0, index < Int(context.pointee.nb_streams) else {
            throw MediaError(.invalidArgument, "\(location): orientation of stream \(index) must be set before the header")
        }
        guard !orientation.isUpright else { return }
        guard let data = av_stream_new_side_data(context.pointee.streams[index], AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) else {
            throw .outOfMemory("display matrix")
        }
        data.withMemoryRebound(to: Int32.self, capacity: 9) { matrix in
            // av_display_rotation_set takes a clockwise angle (av_display_rotation_get gives a
            // counter-clockwise one); the mirror comes before the turn.
            av_display_rotation_set(matrix, Double(90 * orientation.quarterTurns))
            if orientation.mirrored { av_display_matrix_flip(matrix, 1, 0) }
        }
    }

    private func addStream(parameters: UnsafePointer<AVCodecParameters>, timeBase: Rational) throws(MediaError) -> Int {
        guard !headerWritten else { throw MediaError(.invalidArgument, "\(location): streams must be added before the header") }
        guard let st = avformat_new_stream(context, nil) else { throw .outOfMemory("stream") }
        try ffCheck(avcodec_parameters_copy(st.pointee.codecpar, parameters), .outOfMemory, "stream parameters")
        st.pointee.codecpar.pointee.codec_tag = 0  // let the container choose its own tag
        st.pointee.time_base = timeBase.av  // a hint; the muxer may pick another in writeHeader
        return Int(st.pointee.index)
    }

    /// Adds a chapter from `start` to `end` seconds titled `title` (MP4 writes chapters as a
    /// QuickTime chapter track and Nero `chpl`; Matroska natively). Before the header, or, for MP4
    /// only, after it: the MP4 muxer writes chapters it did not have at the header in its trailer.
    public func addChapter(start: Double, end: Double, title: String) throws(MediaError) {
        guard let context, !headerWritten || String(cString: context.pointee.oformat.pointee.name) == "mp4" else {
            throw MediaError(.invalidArgument, "\(location): chapters must be added before the header")
        }
        guard start.isFinite, end.isFinite, start >= 0, end > start, end < 1e9 else {
            throw MediaError(.invalidArgument, "\(location): chapter from \(start) to \(end) s")
        }
        guard let chapter = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self) else {
            throw .outOfMemory("chapter")
        }
        chapter.pointee.id = Int64(context.pointee.nb_chapters) + 1
        chapter.pointee.time_base = AVRational(num: 1, den: 1000)
        chapter.pointee.start = Int64((start * 1000).rounded())
        chapter.pointee.end = Int64((end * 1000).rounded())
        av_dict_set(&chapter.pointee.metadata, "title", title, 0)
        // av_dynarray_add frees the array (not the element) when it cannot grow it.
        var chapters = context.pointee.chapters
        var count = Int32(context.pointee.nb_chapters)
        av_dynarray_add(&chapters, &count, chapter)
        guard chapters != nil, count == Int32(context.pointee.nb_chapters) + 1 else {
            av_dict_free(&chapter.pointee.metadata)
            av_free(chapter)
            context.pointee.chapters = nil
            context.pointee.nb_chapters = 0
            throw .outOfMemory("chapter list")
        }
        context.pointee.chapters = chapters
        context.pointee.nb_chapters = UInt32(count)
    }

    /// Writes the container header. `options` are muxer options such as
    /// ["movflags": "+faststart"]; an option the muxer does not know is an error.
    public func writeHeader(options: [String: String] = [:]) throws(MediaError) {
        var dict: OpaquePointer?
        defer { av_dict_free(&dict) }
        for (k, v) in options { av_dict_set(&dict, k, v, 0) }
        try checked(avformat_write_header(context, &dict), "cannot write header of '\(location)'")
        headerWritten = true
        if av_dict_count(dict) > 0 {
            var unused: [String] = []
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let e = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
                unused.append(String(cString: e.pointee.key))
                entry = e
            }
            throw MediaError(.invalidArgument, "'\(location)': muxer ignored options \(unused.sorted())")
        }
    }

    /// The time base the muxer chose for a stream (valid after `writeHeader`).
    public func timeBase(ofStream index: Int) -> Rational {
        Rational(context!.pointee.streams[index]!.pointee.time_base)
    }

    /// Writes `packet` to stream `index`, rescaling its timestamps from the
    /// packet's time base to the stream's. Packets are interleaved by time.
    public func write(_ packet: Packet, toStream index: Int) throws(MediaError) {
        guard headerWritten, !finished else { throw MediaError(.invalidArgument, "\(location): write between writeHeader and finish") }
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        defer {
            var dead: UnsafeMutablePointer<AVPacket>? = p
            av_packet_free(&dead)
        }
        // A new reference, since the muxer takes ownership and Packet stays immutable.
        try ffCheck(av_packet_ref(p, packet.pointer), .outOfMemory, "packet reference")
        p.pointee.stream_index = Int32(index)
        av_packet_rescale_ts(p, packet.timeBase.av, context!.pointee.streams[index]!.pointee.time_base)
        try checked(av_interleaved_write_frame(context, p), "cannot write packet to '\(location)'")
    }

    /// Writes out what the muxer holds (a Matroska cluster, an Ogg page) and flushes the file, so a
    /// reader of the growing file sees every packet written so far (a recorder writing live).
    public func flush() throws(MediaError) {
        guard headerWritten, !finished, let context else { return }
        // The packets waiting in the interleaving queue first (a file with audio and video), then the muxer's own.
        try checked(av_interleaved_write_frame(context, nil), "cannot flush '\(location)'")
        if context.pointee.oformat.pointee.flags & AVFMT_ALLOW_FLUSH != 0 {
            try checked(av_write_frame(context, nil), "cannot flush '\(location)'")
        }
        if let pb = context.pointee.pb {
            avio_flush(pb)
            try checked(pb.pointee.error, "cannot flush '\(location)'")
        }
    }

    /// Flushes interleaving queues and writes the trailer (index, cues, final playlist).
    public func finish() throws(MediaError) {
        guard headerWritten, !finished else { return }
        finished = true
        try checked(av_write_trailer(context), "cannot finish '\(location)'")
        // The file's close is a write too: a full disk (or a spent quota on a network file system) may
        // only say so there.
        if let context, context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try checked(avio_closep(&context.pointee.pb), "cannot close '\(location)'")
        }
    }

    /// Throws the first failed write of any file the muxer writes (a full disk names the file), else
    /// `ret` when it is an error.
    private func checked(_ ret: Int32, _ what: @autoclosure () -> String) throws(MediaError) {
        if let failure = watch.failure {
            let path = failure.path.isEmpty ? location : failure.path
            throw MediaError.ffmpeg(.writeFailed, "cannot write '\(path)'", failure.averror, path: path)
        }
        if ret < 0 { throw MediaError.ffmpeg(.muxFailed, what(), ret, path: location) }
    }
}
