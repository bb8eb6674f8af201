import Foundation

/// Reads a Janus recording one packet at a time: `MJR00002`, a 16-bit length and the JSON header, then
/// records of `MEET`, a 32-bit millisecond stamp (since `u`), a 16-bit length and a whole RTP packet.
/// The file is memory-mapped, and every length is checked against it.
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
        guard data.count >= 8, data.prefix(8).elementsEqual("MJR00002".utf8) else {
            if data.prefix(8).elementsEqual("MJR00001".utf8) {
                throw JanusRecordingError(.notARecording, file: file, "is an old MJR00001 recording, not supported")
            }
            throw JanusRecordingError(.notARecording, file: file, "is not a Janus recording (no MJR00002 signature)")
        }
        guard data.count >= 10 else {
            throw JanusRecordingError(.neverGotMedia, file: file, "never got media: the recorder wrote no header, so no packet arrived")
        }
        let length = Int(data[data.startIndex + 8]) << 8 | Int(data[data.startIndex + 9])
        guard length > 0, 10 + length <= data.count else {
            throw JanusRecordingError(.notARecording, file: file, "header of \(length) bytes does not fit the file of \(data.count)")
        }
        switch MJRHeader.parse([UInt8](data[(data.startIndex + 10)..<(data.startIndex + 10 + length)])) {
        case .success(let header): self.header = header
        case .failure(let problem): throw JanusRecordingError(.notARecording, file: file, problem.text)
        }
        offset = 10 + length
    }

    /// Whether anything follows the header.
    var hasPackets: Bool { offset < data.count }

    /// The next whole record, or nil at the end (or where the file stops making sense: see `stoppedEarly`).
    mutating func next() -> Record? {
        guard stoppedEarly == nil, offset < data.count else { return nil }
        let base = data.startIndex + offset
        let left = data.count - offset
        guard left >= 10 else { return stop("a packet record cut short after \(left) bytes at byte \(offset)") }
        guard data[base..<(base + 4)].elementsEqual("MEET".utf8) else {
            return stop("no packet record (MEET) at byte \(offset); the rest of the file is ignored")
        }
        let ms = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[base + 4 + $1]) }
        let length = Int(data[base + 8]) << 8 | Int(data[base + 9])
        guard length <= left - 10 else {
            return stop("the last packet is cut short (\(left - 10) of \(length) bytes at byte \(offset))")
        }
        offset += 10 + length
        return Record(arrivalMs: Int64(ms), bytes: [UInt8](data[(base + 10)..<(base + 10 + length)]))
    }

    private mutating func stop(_ why: String) -> Record? {
        stoppedEarly = why
        return nil
    }
}
