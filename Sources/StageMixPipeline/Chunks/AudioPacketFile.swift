import Foundation
import StageMixMedia

/// The session's AAC packets as the audio work writes them for the join: each with its timestamps,
/// duration and flags, and the output frame after whose samples the encoder gave it out, so that the
/// join hands every container the packets in the very order a whole run does (same interleaving,
/// same segments). A file of StageMix's own rather than a container: NUT keeps no durations (the
/// last AAC packets are shorter), and none keeps the frame.
///
/// Layout, little-endian: the magic `StageMixAAC1`, the time base (numerator, denominator: Int32),
/// then per packet `afterFrame`, `pts`, `dts`, `duration` (Int64), `flags` (UInt32: 1 keyframe),
/// `size` (UInt32) and the payload.
final class AudioPacketFile {
    static let magic = Array("StageMixAAC1".utf8)
    /// The frame noted for the packets the encoder gives out when flushed, after the last frame.
    static let atEnd = Int64.max

    private let url: URL
    private let handle: FileHandle
    private var buffer = Data()
    private(set) var packets = 0

    init(url: URL, timeBase: Rational) throws {
        self.url = url
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw MediaError(.writeFailed, "cannot create '\(url.path)'")
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.append(contentsOf: Self.magic)
        Self.append(Int32(timeBase.numerator), to: &buffer)
        Self.append(Int32(timeBase.denominator), to: &buffer)
    }

    /// Notes `packet`, given out after the samples of output frame `frame` (``atEnd`` when flushed).
    func write(_ packet: Packet, afterFrame frame: Int64) throws {
        let bytes = packet.bytes
        Self.append(frame, to: &buffer)
        Self.append(packet.pts ?? 0, to: &buffer)
        Self.append(packet.dts ?? packet.pts ?? 0, to: &buffer)
        Self.append(packet.duration, to: &buffer)
        Self.append(UInt32(packet.isKeyframe ? 1 : 0), to: &buffer)
        Self.append(UInt32(bytes.count), to: &buffer)
        buffer.append(contentsOf: bytes)
        packets += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is left and closes the file.
    func finish() throws {
        try flush()
        do { try handle.close() } catch { throw MediaError.writing(url, error) }
    }

    private func flush() throws {
        do { try handle.write(contentsOf: buffer) } catch { throw MediaError.writing(url, error) }
        buffer.removeAll(keepingCapacity: true)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
