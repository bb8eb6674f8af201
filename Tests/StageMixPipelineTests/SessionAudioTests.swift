import Foundation
import StageMixTestSupport
import StageMixMedia
import StageMixTime
import Testing
@testable import StageMixPipeline

/// The session's audio of a chunked run as work of its own: its packet file gives back every AAC
/// packet as the encoder gave it out (timestamps, duration, bytes, the frame it came after), refuses
/// what is not whole naming the file; and a chunked run's report says what the audio work cost and
/// what its loudness was, as a whole run's does.
@Suite("Session audio", .serialized)
struct SessionAudioTests {
    /// A second of a tone through the run's AAC encoder, its packets noted after each 30 fps frame.
    static func encodedTone(into url: URL) throws -> [(frame: Int64, pts: Int64?, duration: Int64, bytes: [UInt8])] {
        let encoder = try AudioEncoder(sampleRate: MediaTime.sampleRate, channels: 2, bitrate: 128_000)
        let file = try AudioPacketFile(url: url, timeBase: encoder.timeBase)
        var written: [(frame: Int64, pts: Int64?, duration: Int64, bytes: [UInt8])] = []
        func drain(after frame: Int64) throws {
            while case .packet(let packet) = try encoder.receive() {
                try file.write(packet, afterFrame: frame)
                written.append((frame, packet.pts, packet.duration, packet.bytes))
            }
        }
        for frame in 0..<30 {
            let tone = (0..<1_600).map { n in 0.3 * sin(2 * Float.pi * 440 * Float(frame * 1_600 + n) / 48_000) }
            try encoder.send(planar: [tone, tone])
            try drain(after: Int64(frame))
        }
        try encoder.sendEndOfStream()
        try drain(after: AudioPacketFile.atEnd)
        try file.finish()
        return written
    }

    @Test func thePacketFileGivesBackWhatTheEncoderGaveOutFrameByFrame() throws {
        let scratch = ScratchDirectory("audio-packets")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let url = scratch.file("audio.packets")
        let written = try Self.encodedTone(into: url)
        #expect(written.count > 40 && written.last?.frame == AudioPacketFile.atEnd)
        #expect(written.last.map { $0.duration < 1_024 } == true, "the last packet is shorter than a frame: why NUT would not do")

        let routes = CollectedPackets()
        let output = AudioOutput(encoder: try AudioEncoder())
        output.routes.append(routes, stream: 0)
        let reader = try AudioPacketReader(url: url)
        try reader.write(upToFrame: 9, into: output)
        #expect(routes.packets.count == written.filter { $0.frame <= 9 }.count)
        try reader.write(upToFrame: AudioPacketFile.atEnd, into: output)
        try reader.checkEnd(expected: written.count)
        #expect(routes.packets.map(\.pts) == written.map(\.pts))
        #expect(routes.packets.map(\.duration) == written.map(\.duration))
        #expect(routes.packets.map(\.bytes) == written.map(\.bytes))
        #expect(routes.packets.allSatisfy { $0.timeBase.numerator == 1 && $0.timeBase.denominator == 48_000 })
        // Packets from elsewhere: the join's own encoder is never flushed into the output.
        try output.finish()
        #expect(routes.packets.count == written.count)
    }

    @Test func aPacketFileThatIsNotWholeIsRefusedByName() throws {
        let scratch = ScratchDirectory("audio-packets")
        defer { try? FileManager.default.removeItem(at: scratch.url) }
        let url = scratch.file("audio.packets")
        let written = try Self.encodedTone(into: url)
        let data = try Data(contentsOf: url)

        let cut = scratch.file("cut.packets")
        try data.prefix(data.count - 10).write(to: cut)
        let output = AudioOutput(encoder: try AudioEncoder())
        let error = #expect(throws: MediaError.self) {
            try AudioPacketReader(url: cut).write(upToFrame: AudioPacketFile.atEnd, into: output)
        }
        #expect(error?.message.contains(cut.path) == true && error?.message.contains("ends inside packet \(written.count)") == true, "\(String(describing: error))")

        let short = scratch.file("short.packets")
        let lastRecord = 40 + written.last!.bytes.count
        try data.prefix(data.count - lastRecord).write(to: short)
        let reader = try AudioPacketReader(url: short)
        try reader.write(upToFrame: AudioPacketFile.atEnd, into: output)
        let missing = #expect(throws: MediaError.self) { try reader.checkEnd(expected: written.count) }
        #expect(missing?.message.contains("holds \(written.count - 1) packets where \(written.count) were written") == true, "\(String(describing: missing))")

        let other = scratch.file("other.packets")
        try Data("#EXTM3U\n".utf8).write(to: other)
        let refused = #expect(throws: MediaError.self) { try AudioPacketReader(url: other) }
        #expect(refused?.message == "'\(other.path)' is not a StageMix audio packet file")
    }

    /// The panel sample, loudness normalised (the pass runs in the audio work): the chunked run's
    /// loudness is the whole run's, and its report gives the audio work's CPU apart from the join's.
    @Test func aChunkedRunsAudioWorkIsReportedApart() throws {
        let runs = try ChunkedComposeTests.compose(["--preset", "ultrafast", "--resolution", "320x180"],
                                                   chunk: ["--chunk-seconds", "8", "--jobs", "2"])
        defer { runs.cleanup() }
        func report(_ folder: URL) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as? [String: Any])
        }
        let whole = try report(runs.whole), chunked = try report(runs.chunked)
        let loudness = try #require(whole["loudness"] as? [String: Any])
        #expect(loudness["targetLUFS"] != nil, "normalised by default")
        #expect(NSDictionary(dictionary: try #require(chunked["loudness"] as? [String: Any])).isEqual(to: loudness))
        let chunking = try #require(chunked["chunking"] as? [String: Any])
        let audio = try #require(chunking["audio"] as? [String: Any])
        #expect((audio["cpuSeconds"] as? Double ?? 0) > 0 && (audio["wallSeconds"] as? Double ?? 0) > 0)
        let cpu = try #require(chunked["cpuSeconds"] as? [String: Any])
        #expect((cpu["loudnessPass"] as? Double ?? 0) > 0, "the audio work's loudness pass is counted")
    }
}

/// Packets written to a route, kept.
private final class CollectedPackets: PacketSink {
    private(set) var packets: [Packet] = []
    func write(_ packet: Packet, toStream index: Int) throws(MediaError) { packets.append(packet) }
}
