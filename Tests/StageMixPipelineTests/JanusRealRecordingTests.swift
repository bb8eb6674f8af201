import Foundation
import Testing
import StageMixImport
import StageMixMedia
import StageMixTestSupport

/// Recordings made by a real Janus from real browsers (`scripts/janus-record OUTDIR --codec C`), when this
/// machine has them in /tmp/jr-*; CI makes them itself. Each file is converted, demuxed and decoded;
/// counts and durations are checked against the RTP in the `.mjr`, and `janus-pp-rec`'s output is a
/// reference for the packet count only.
@Suite("Janus real recordings", .serialized)
struct JanusRealRecordingTests {
    static let runs = ["/tmp/jr-final-vp8", "/tmp/jr-vp8", "/tmp/jr-h264", "/tmp/jr-vp9"]
        .filter { FileManager.default.fileExists(atPath: $0 + "/recordings") }

    /// What the `.mjr` holds, read here independently of the converter: media packets, distinct RTP
    /// times and the RTP span.
    struct RTPCensus {
        var mediaPackets = 0
        var times = Set<UInt32>()
        var firstTimestamp: UInt32?
        var lastTimestamp: UInt32 = 0

        init(_ url: URL) throws {
            let b = [UInt8](try Data(contentsOf: url))
            var at = 10 + (Int(b[8]) << 8 | Int(b[9]))
            while at + 10 <= b.count {
                let length = Int(b[at + 8]) << 8 | Int(b[at + 9])
                let rtp = Array(b[(at + 10)..<min(b.count, at + 10 + length)])
                at += 10 + length
                var start = 12 + 4 * Int(rtp[0] & 0x0F)
                if rtp[0] & 0x10 != 0 { start += 4 + 4 * (Int(rtp[start + 2]) << 8 | Int(rtp[start + 3])) }
                let end = rtp.count - (rtp[0] & 0x20 != 0 ? Int(rtp.last!) : 0)
                guard end > start else { continue }
                let ts = (4..<8).reduce(UInt32(0)) { $0 << 8 | UInt32(rtp[$1]) }
                mediaPackets += 1
                times.insert(ts)
                if firstTimestamp == nil { firstTimestamp = ts }
                lastTimestamp = ts
            }
        }
    }

    /// The colour each publisher's camera showed, by publisher id (scenario.json).
    static func colours(_ run: String) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: run + "/scenario.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var out: [String: String] = [:]
        for p in object?["publishers"] as? [[String: Any]] ?? [] {
            if let id = p["janus_publisher_id"] as? NSNumber, let colour = p["colour"] as? String { out[id.stringValue] = colour }
        }
        return out
    }

    static func janusPPRecPackets(_ mjr: URL, ext: String, in dir: ScratchDirectory) throws -> Int? {
        let out = dir.file(mjr.deletingPathExtension().lastPathComponent + "-pprec." + ext)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["janus-pp-rec", mjr.path, out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try JanusRecordingTests.packets(out).packets.count
    }

    @Test(.enabled(if: !runs.isEmpty, "no real recordings in /tmp/jr-*: make them with scripts/janus-record"), arguments: runs)
    func aRealRecordingConvertsLikeItsRTP(run: String) throws {
        let dir = ScratchDirectory("janus-real")
        defer { dir.remove() }
        let colours = try Self.colours(run)
        let files = try FileManager.default.contentsOfDirectory(atPath: run + "/recordings").filter { $0.hasSuffix(".mjr") }.sorted()
        #expect(!files.isEmpty)
        for name in files {
            let mjr = URL(fileURLWithPath: run + "/recordings/" + name)
            let result = try JanusRecordingConverter.convert(mjr, into: dir.url, baseName: name)
            let census = try RTPCensus(mjr)
            let (stream, written) = try JanusRecordingTests.packets(result.file)
            let isAudio = result.header.kind == .audio
            let rate = isAudio ? 48_000.0 : 90_000.0
            let span = Double(census.lastTimestamp &- census.firstTimestamp!) / rate
            // The recorder may close in the middle of the last picture (an unpublish): only that one may be lost.
            let lastPictureUs = result.header.firstPacketUs + Int64(span * 1_000_000)
            #expect(result.losses.count <= 1 && result.losses.allSatisfy { $0.reason == .missingPackets && abs($0.fromUs - lastPictureUs) < 100 },
                    "\(name): \(result.losses)")
            #expect(result.warnings.isEmpty, "\(name): \(result.warnings)")
            #expect(written.count == (isAudio ? census.mediaPackets : census.times.count - result.losses.count), "\(name)")
            #expect(abs(Double(result.durationMs) / 1000 - span) < (isAudio ? 0.03 : 0.1), "\(name): \(result.durationMs) ms vs RTP \(span) s")
            #expect(result.firstSampleUs == result.header.firstPacketUs, "\(name): the first packet is whole and a keyframe")
            let ext = isAudio ? "opus" : result.header.codec == "h264" ? "mp4" : "webm"
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/janus-pp-rec") {
                let reference = try #require(try Self.janusPPRecPackets(mjr, ext: ext, in: dir), "janus-pp-rec converts \(name)")
                #expect(abs(reference - written.count) <= 1, "\(name): janus-pp-rec wrote \(reference), we wrote \(written.count)")
            }
            guard !isAudio else {
                #expect(stream.codecName == "opus")
                continue
            }
            #expect(result.width == 320 && result.height == 240, "\(name)")
            let decoded = try JanusRecordingTests.decode(result.file, at: (8, 8))
            let id = name.split(separator: "-")[3]
            let colour = try #require(decoded.first, "\(name) decodes")
            switch colours[String(id)] {
            case "red": #expect(colour.r > 200 && colour.g < 70 && colour.b < 70, "\(name): \(colour)")
            case "green": #expect(colour.g > 150 && colour.r < 70 && colour.b < 70, "\(name): \(colour)")
            case "blue": #expect(colour.b > 200 && colour.r < 70, "\(name): \(colour)")
            default: Issue.record("\(name): no colour for publisher \(id) in scenario.json")
            }
        }
    }
}
