import Foundation

/// Reads a Janus recording one packet at a time: `MJR00002`, a 16-bit length and the JSON header, then
/// records of `MEET`, a 32-bit millisecond stamp (since `u`), a 16-bit length and a whole RTP packet
/// (``MJRLayout``). The file is memory-mapped, and every length is checked against it.
struct MJRReader {
    /// One record: when it arrived (ms since the header's `u`) and the RTP packet.
    struct Record {
        var arrivalMs: Int64
        var bytes: [UInt8]
    }

    let file: URL
    let header: MJRHeader
    private let data: Data
    private var offset: Int
    /// Set when reading stopped before the end of the file, saying why.
    private(set) var stoppedEarly: String?

    init(_ file: URL) throws(JanusRecordingError) {
        self.file = file
        do { data = try Data(contentsOf: file, options: .alwaysMapped) } catch {
            throw JanusRecordingError(.ioFailed, file: file, "cannot read: \(error.localizedDescription)")
        }
        guard data.count >= 10 || !data.prefix(8).elementsEqual(MJRLayout.signature) else {
            throw JanusRecordingError(.neverGotMedia, file: file, "never got media: the recorder wrote no header, so no packet arrived")
        }
        switch MJRLayout.header(in: data) {
        case .found(let header, let next):
            self.header = header
            offset = next
        case .cutShort(let why):
            throw JanusRecordingError(.notARecording, file: file, why)
        case .damaged(let why):
            throw JanusRecordingError(.notARecording, file: file, why)
        }
    }

    /// Whether anything follows the header.
    var hasPackets: Bool { offset < data.count }

    /// The next whole record, or nil at the end (or where the file stops making sense: see `stoppedEarly`).
    mutating func next() -> Record? {
        guard stoppedEarly == nil, offset < data.count else { return nil }
        switch MJRLayout.record(in: data, at: offset) {
        case .found(let record, let next):
            offset = next
            return record
        case .cutShort(let why):
            return stop(why)
        case .damaged(let why):
            return stop(why + "; the rest of the file is ignored")
        }
    }

    private mutating func stop(_ why: String) -> Record? {
        stoppedEarly = why
        return nil
    }
}
