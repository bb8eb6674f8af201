import Foundation
import StageMixMedia

/// One media file of a capture written again as a recorder writes it live: every stream copied as it
/// is (the same packets, the same timestamps, so the contract's timing rule places them where it
/// placed the originals), each packet only once the session's clock has passed it, the file flushed
/// after each batch so a reader of the growing file sees it. A container that cannot be read while
/// it is written (MP4) is written as Matroska instead.
final class ReplayedFile {
    /// Capture-relative paths: where the original is, and where the live copy goes.
    let source: String
    let target: String
    private let demuxer: Demuxer
    private let muxer: Muxer
    /// Source stream index to target stream index.
    private var streams: [Int: Int] = [:]
    /// The file's first presentation time, in seconds (the contract's `pts0`).
    private let firstSeconds: Double
    /// Where the file's first sample falls on the session clock, in seconds.
    private let startSeconds: Double
    private var pending: Packet?
    private(set) var finished = false
    private(set) var packets = 0

    /// Containers written live as they are; anything else becomes Matroska.
    static let liveContainers: Set<String> = ["webm", "mkv", "mka", "ogg", "opus", "ts", "ivf"]

    static func target(for source: String) -> String {
        let ext = (source as NSString).pathExtension.lowercased()
        return liveContainers.contains(ext) ? source : (source as NSString).deletingPathExtension + ".mkv"
    }

    init(source: String, in capture: URL, into folder: URL, startOffsetMs: Int) throws {
        self.source = source
        target = Self.target(for: source)
        demuxer = try Demuxer(url: capture.appendingPathComponent(source))
        let output = folder.appendingPathComponent(target)
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        muxer = try Muxer(url: output, format: target.hasSuffix(".mkv") ? "matroska" : nil)
        for stream in demuxer.streams where stream.mediaType == .video || stream.mediaType == .audio {
            streams[stream.index] = try muxer.addStream(copying: stream)
        }
        let ext = (target as NSString).pathExtension.lowercased()
        try muxer.writeHeader(options: ["webm", "mkv", "mka"].contains(ext) ? ["live": "1"] : [:])
        try muxer.flush()
        pending = try Self.next(from: demuxer, keeping: streams)
        firstSeconds = pending?.ptsSeconds ?? pending?.dtsSeconds ?? 0
        startSeconds = Double(startOffsetMs) / 1000
        if pending == nil { try finish() }
    }

    /// The session time of the next packet to write, in seconds; nil when the file is done.
    var nextSeconds: Double? {
        guard let pending else { return nil }
        return startSeconds + ((pending.ptsSeconds ?? pending.dtsSeconds ?? firstSeconds) - firstSeconds)
    }

    /// Writes every packet whose session time is before `seconds`, then flushes.
    func write(before seconds: Double) throws {
        var wrote = false
        while let packet = pending, let at = nextSeconds, at < seconds {
            if let index = streams[packet.streamIndex] {
                try muxer.write(packet, toStream: index)
                packets += 1
                wrote = true
            }
            pending = try Self.next(from: demuxer, keeping: streams)
        }
        if pending == nil { try finish() } else if wrote { try muxer.flush() }
    }

    func finish() throws {
        guard !finished else { return }
        finished = true
        try muxer.finish()
    }

    private static func next(from demuxer: Demuxer, keeping streams: [Int: Int]) throws -> Packet? {
        while let packet = try demuxer.readPacket() {
            if streams[packet.streamIndex] != nil { return packet }
        }
        return nil
    }
}
