import Foundation
import StageMixMedia

/// Reads back an ``AudioPacketFile`` as the join goes: the packets given out up to each output frame,
/// in order. Anything that is not such a file, or that ends inside a packet, is an error naming it.
final class AudioPacketReader {
    private let url: URL
    private let handle: FileHandle
    private var buffer = Data()
    private var offset = 0
    private var ended = false
    /// The packets' time base, as the file says it (the encoder's, 1/48000).
    private(set) var timeBase = Rational(0, 1)
    /// The next packet, read ahead, with the frame after which it goes.
    private var next: (frame: Int64, packet: Packet)?
    private(set) var packets = 0

    init(url: URL) throws {
        self.url = url
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw MediaError(.openFailed, "cannot open '\(url.path)': \(error.localizedDescription)", path: url.path)
        }
        guard let magic = try read(AudioPacketFile.magic.count), Array(magic) == AudioPacketFile.magic,
              let numerator = try readInteger(Int32.self), let denominator = try readInteger(Int32.self), numerator > 0, denominator > 0 else {
            throw MediaError(.invalidData, "'\(url.path)' is not a StageMix audio packet file")
        }
        timeBase = Rational(numerator, denominator)
        try readNext()
    }

    /// Writes every packet given out up to the end of output frame `frame` (all that is left for
    /// ``AudioPacketFile/atEnd``) into `output`.
    func write(upToFrame frame: Int64, into output: AudioOutput) throws {
        while let (after, packet) = next, after <= frame {
            try output.write(encoded: packet)
            try readNext()
        }
    }

    /// Throws unless every packet has been read and the file held `expected` of them.
    func checkEnd(expected: Int) throws {
        guard next == nil, packets == expected else {
            throw MediaError(.invalidData, "'\(url.path)' holds \(next == nil ? "\(packets)" : "more than \(packets)") packets where \(expected) were written")
        }
    }

    private func readNext() throws {
        guard let frame = try readInteger(Int64.self) else {
            next = nil
            return
        }
        guard let pts = try readInteger(Int64.self), let dts = try readInteger(Int64.self), let duration = try readInteger(Int64.self),
              let flags = try readInteger(UInt32.self), let size = try readInteger(UInt32.self), let bytes = try read(Int(size)) else {
            throw MediaError(.invalidData, "'\(url.path)' ends inside packet \(packets + 1)")
        }
        var packet = try Packet(bytes: Array(bytes), pts: pts, duration: duration, timeBase: timeBase, isKeyframe: flags & 1 != 0)
        if dts != pts { packet = try packet.restamped(pts: pts, dts: dts, duration: duration, timeBase: timeBase) }
        next = (frame, packet)
        packets += 1
    }

    private func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
        guard let bytes = try read(MemoryLayout<T>.size) else { return nil }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        return T(littleEndian: value)
    }

    /// The next `count` bytes; nil at the end of the file (an end inside them too, which the caller names).
    private func read(_ count: Int) throws -> Data? {
        while buffer.count - offset < count, !ended {
            let more: Data?
            do { more = try handle.read(upToCount: max(1 << 20, count)) } catch {
                throw MediaError(.invalidData, "cannot read '\(url.path)': \(error.localizedDescription)", path: url.path)
            }
            if let more, !more.isEmpty {
                buffer = buffer.subdata(in: offset..<buffer.count) + more
                offset = 0
            } else {
                ended = true
            }
        }
        guard buffer.count - offset >= count else { return nil }
        defer { offset += count }
        return buffer.subdata(in: offset..<offset + count)
    }

    deinit { try? handle.close() }
}
