import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a Janus recording while Janus writes it: each call reads what was added since the last and
/// hands on the whole records; a record (or the header) cut short is only "not written yet", kept
/// for the next call. Janus writes through stdio, so the file grows a buffer (about 4 KiB) at a time
/// and may stop anywhere, even inside the header. The file stays open, so Janus renaming it (a
/// `.mjr.tmp` closed) changes nothing. Memory is one record cut short plus one read.
final class MJRTail {
    let file: URL
    private let descriptor: Int32
    /// Bytes read but not yet a whole record.
    private var pending: [UInt8] = []
    /// Where the next read starts.
    private var position: Int64 = 0
    private(set) var header: MJRHeader?
    /// Set when the file stops making sense (not a recording, no `MEET` where a record should start):
    /// nothing more is read from it.
    private(set) var damaged: String?
    /// Whether the last read found anything new.
    private(set) var grew = false
    static let readSize = 256 << 10

    init(_ file: URL) throws(JanusRecordingError) {
        self.file = file
        descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw JanusRecordingError(.ioFailed, file: file, "cannot read: \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    /// Bytes of a record (or header) cut short at the end of what was read: what Janus has yet to write
    /// out, or, once it has closed the file, a record cut short for good.
    var cutShortBytes: Int { pending.count }

    /// Reads what was added and calls `body` with each whole record, in the file's order.
    func read(_ body: (MJRReader.Record) throws -> Void) throws {
        grew = false
        var chunk = [UInt8](repeating: 0, count: Self.readSize)
        while damaged == nil {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.readSize, off_t(position)) }
            guard count > 0 else { break }
            position += Int64(count)
            grew = true
            pending += chunk[0..<count]
            var offset = 0
            if header == nil {
                switch MJRLayout.header(in: pending) {
                case .found(let found, let next):
                    header = found
                    offset = next
                case .cutShort: continue
                case .damaged(let why): damaged = why
                }
            }
            while damaged == nil {
                switch MJRLayout.record(in: pending, at: offset) {
                case .found(let record, let next):
                    offset = next
                    try body(record)
                    continue
                case .cutShort: break
                case .damaged(let why): damaged = why + "; the rest of the file is ignored"
                }
                break
            }
            pending.removeFirst(offset)
        }
    }
}
