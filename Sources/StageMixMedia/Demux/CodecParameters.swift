internal import CFFmpeg

/// Owns a copy of a stream's AVCodecParameters so decoders and muxers can be
/// set up from a `StreamInfo` after the demuxer or encoder is gone.
final class CodecParameters: @unchecked Sendable {
    // Immutable after init, hence safe to share.
    let pointer: UnsafeMutablePointer<AVCodecParameters>

    init(copying source: UnsafePointer<AVCodecParameters>) throws(MediaError) {
        guard let p = avcodec_parameters_alloc() else { throw .outOfMemory("codec parameters") }
        pointer = p
        try ffCheck(avcodec_parameters_copy(p, source), .outOfMemory, "copy codec parameters")
    }

    init(from context: UnsafePointer<AVCodecContext>) throws(MediaError) {
        guard let p = avcodec_parameters_alloc() else { throw .outOfMemory("codec parameters") }
        pointer = p
        try ffCheck(avcodec_parameters_from_context(p, context), .outOfMemory, "codec parameters from encoder")
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&p)
    }

    var extradata: [UInt8] {
        let p = pointer.pointee
        guard let data = p.extradata, p.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(p.extradata_size)))
    }
}

/// Copies bytes into a freshly av_malloc'ed, zero-padded buffer as FFmpeg expects for extradata.
func makeExtradata(_ bytes: [UInt8]) throws(MediaError) -> (UnsafeMutablePointer<UInt8>, Int32) {
    let padded = bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
    guard let raw = av_mallocz(padded) else { throw .outOfMemory("extradata") }
    let p = raw.bindMemory(to: UInt8.self, capacity: padded)
    bytes.withUnsafeBufferPointer { src in
        if let base = src.baseAddress { p.update(from: base, count: bytes.count) }
    }
    return (p, Int32(bytes.count))
}
