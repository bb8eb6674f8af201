internal import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// The files an output context writes, watched (a CFFOutputWatch): libavformat's HLS muxer carries on
/// past a segment whose write or close failed, so every file the context and its nested contexts open
/// goes through the watch, which keeps the first failure and its path for ``Muxer`` to throw at the
/// next packet, rather than after the encode, minutes later.
final class OutputWatch: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<CFFOutputWatch>

    init() {
        pointer = .allocate(capacity: 1)
        memset(pointer, 0, MemoryLayout<CFFOutputWatch>.size)
        pointer.pointee.media.deadline = .max
    }

    deinit { pointer.deallocate() }

    /// Installs the watch on `context`, before its header is written.
    func install(on context: UnsafeMutablePointer<AVFormatContext>) {
        cff_output_watch(context, pointer)
    }

    /// The first failed write, open or close so far, with the file it was for.
    var failure: (averror: Int32, path: String)? {
        let error = pointer.pointee.error
        guard error < 0 else { return nil }
        let path = withUnsafeBytes(of: &pointer.pointee.path) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return (error, path)
    }
}
