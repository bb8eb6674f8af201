/// Where the parts of a Janus recording lie in its bytes: `MJR00002`, a 16-bit big-endian length and
/// that many bytes of JSON header, then records of `MEET`, a 32-bit big-endian millisecond stamp
/// (since `u`), a 16-bit length and a whole RTP packet. Read from a whole file (``MJRReader``) or
/// from one Janus is still writing (``MJRTail``), where "not there yet" is not damage.
enum MJRLayout {
    /// What the bytes at a place hold.
    enum Reading<Value> {
        /// A whole part, and the offset just after it.
        case found(Value, next: Int)
        /// The part starts but its bytes are not all there (yet): what is missing, in words.
        case cutShort(String)
        /// Not what Janus writes there: the reason.
        case damaged(String)
    }

    static let signature = Array("MJR00002".utf8)

    /// The header at the file's start, as `(header, length)` when its JSON is whole.
    static func header<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> Reading<MJRHeader> where Bytes.Index == Int {
        let base = bytes.startIndex
        guard bytes.count >= 8 else {
            return bytes.elementsEqual(signature.prefix(bytes.count)) ? .cutShort("a header cut short after \(bytes.count) bytes") : .damaged("is not a Janus recording (no MJR00002 signature)")
        }
        guard bytes[base..<(base + 8)].elementsEqual(signature) else {
            if bytes[base..<(base + 8)].elementsEqual("MJR00001".utf8) { return .damaged("is an old MJR00001 recording, not supported") }
            return .damaged("is not a Janus recording (no MJR00002 signature)")
        }
        guard bytes.count >= 10 else { return .cutShort("a header cut short after \(bytes.count) bytes") }
        let length = Int(bytes[base + 8]) << 8 | Int(bytes[base + 9])
        guard length > 0 else { return .damaged("header of 0 bytes") }
        guard 10 + length <= bytes.count else { return .cutShort("header of \(length) bytes does not fit the file of \(bytes.count)") }
        switch MJRHeader.parse(Array(bytes[(base + 10)..<(base + 10 + length)])) {
        case .success(let header): return .found(header, next: 10 + length)
        case .failure(let problem): return .damaged(problem.text)
        }
    }

    /// The packet record at `offset` (relative to the collection's start).
    static func record<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at offset: Int) -> Reading<MJRReader.Record> where Bytes.Index == Int {
        let base = bytes.startIndex + offset
        let left = bytes.count - offset
        guard left >= 10 else {
            if left >= 4, !bytes[base..<(base + 4)].elementsEqual("MEET".utf8) { return .damaged("no packet record (MEET) at byte \(offset)") }
            return .cutShort("a packet record cut short after \(left) bytes at byte \(offset)")
        }
        guard bytes[base..<(base + 4)].elementsEqual("MEET".utf8) else { return .damaged("no packet record (MEET) at byte \(offset)") }
        let ms = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[base + 4 + $1]) }
        let length = Int(bytes[base + 8]) << 8 | Int(bytes[base + 9])
        guard length <= left - 10 else { return .cutShort("the last packet is cut short (\(left - 10) of \(length) bytes at byte \(offset))") }
        return .found(MJRReader.Record(arrivalMs: Int64(ms), bytes: Array(bytes[(base + 10)..<(base + 10 + length)])), next: offset + 10 + length)
    }
}
