import Foundation
import Testing
import StageMixImport
import StageMixMedia
@testable import StageMixPipeline
import StageMixTestSupport

/// Janus VideoRoom recordings (`.mjr`) turned into media files: synthetic recordings packetized here from
/// media our encoder or ffmpeg made, with loss, reordering, repeats, timestamp wrap, padding, gaps,
/// SSRC changes, a start before the first keyframe and a size change injected.
@Suite("Janus recordings")
struct JanusRecordingTests {
    typealias Synth = SyntheticJanusRecording
    static let u = Synth.u

    // MARK: Helpers

    static func convert(_ header: String, _ packets: [SyntheticRTP], in dir: ScratchDirectory,
                        name: String = "rec") throws -> JanusConvertedRecording {
        let mjr = dir.file(name + ".mjr")
        try Synth.mjr(header: header, packets: packets).write(to: mjr)
        return try JanusRecordingConverter.convert(mjr, into: dir.url, baseName: name)
    }

    /// Every packet of the file's first stream.
    static func packets(_ file: URL?) throws -> (stream: StreamInfo, packets: [Packet]) {
        let demuxer = try Demuxer(url: try #require(file))
        var out: [Packet] = []
        while let p = try demuxer.readPacket() { out.append(p) }
        return (demuxer.streams[0], out)
    }

    /// The colour at `point` (the middle when nil) of the first decoded picture, and every decoded picture's size.
    static func decode(_ file: URL?, at point: (x: Int, y: Int)? = nil) throws -> (first: RGBColor?, sizes: [String]) {
        let (stream, packets) = try packets(file)
        let decoder = try VideoDecoder(stream: stream)
        var first: RGBColor?
        var sizes: [String] = []
        func drain() throws {
            while case .frame(let f) = try decoder.receive() {
                if first == nil { first = f.pixelRGB(x: point?.x ?? f.width / 2, y: point?.y ?? f.height / 2) }
                if sizes.last != "\(f.width)x\(f.height)" { sizes.append("\(f.width)x\(f.height)") }
            }
        }
        for p in packets {
            try decoder.send(p)
            try drain()
        }
        try decoder.send(nil)
        try drain()
        return (first, sizes)
    }

    static func pts(_ packets: [Packet], scale: Double) -> [Int] {
        packets.map { Int((($0.ptsSeconds ?? -1) * scale).rounded()) }
    }

    // MARK: Header and errors

    @Test func theHeaderIsReadAsJanusWritesIt() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let header = Synth.header("a", "opus", extra: #""f": "minptime=10;useinbandfec=1;stereo=0", "x": {"1": "urn:ietf:params:rtp-hdrext:ssrc-audio-level"}, "#)
        let result = try Self.convert(header, Synth.opusRTP(Synth.opusPackets(seconds: 0.2)), in: dir)
        #expect(result.header == MJRHeader(kind: .audio, codec: "opus", fmtp: "minptime=10;useinbandfec=1;stereo=0",
                                           createdUs: Self.u - 100_000, firstPacketUs: Self.u,
                                           extensions: [1: "urn:ietf:params:rtp-hdrext:ssrc-audio-level"]))
        #expect(result.file?.lastPathComponent == "rec.mka")
    }

    @Test(arguments: [("a", "pcmu"), ("a", "g722"), ("v", "av1"), ("v", "h265"), ("d", "text")])
    func otherCodecsAreRefusedByName(kind: String, codec: String) throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let packets = [SyntheticRTP(sequenceNumber: 1, timestamp: 0, payload: [1, 2, 3], arrivalMs: 0)]
        let error = #expect(throws: JanusRecordingError.self) { try Self.convert(Synth.header(kind, codec), packets, in: dir) }
        #expect(error?.code == .unsupportedCodec)
        #expect(error?.description.contains("rec.mjr") == true)
        #expect(error?.description.contains("\"\(codec)\" is not supported; skipped") == true)
    }

    @Test func aRecorderThatNeverGotMediaIsItsOwnError() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let bare = dir.file("bare.mjr"), headerOnly = dir.file("header.mjr"), other = dir.file("other.mjr")
        try Data("MJR00002".utf8).write(to: bare)
        try Synth.mjr(header: Synth.header("v", "vp8"), packets: []).write(to: headerOnly)
        try Data("RIFF0000WAVEfmt ".utf8).write(to: other)
        for (file, code) in [(bare, JanusRecordingError.Code.neverGotMedia), (headerOnly, .neverGotMedia), (other, .notARecording)] {
            let error = #expect(throws: JanusRecordingError.self) { try JanusRecordingConverter.convert(file, into: dir.url, baseName: "x") }
            #expect(error?.code == code, "\(file.lastPathComponent)")
            #expect(error?.description.contains(file.lastPathComponent) == true)
        }
    }

    @Test func aTruncatedLastPacketKeepsWhatWasWhole() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let mjr = dir.file("cut.mjr")
        let whole = Synth.mjr(header: Synth.header("a", "opus"), packets: Synth.opusRTP(try Synth.opusPackets(seconds: 1)))
        try whole.dropLast(20).write(to: mjr)
        let result = try JanusRecordingConverter.convert(mjr, into: dir.url, baseName: "cut")
        #expect(try Self.packets(result.file).packets.count == 49)
        #expect(result.warnings.contains { $0.contains("cut.mjr") && $0.contains("cut short") }, "\(result.warnings)")
    }

    /// Damaged files (bytes flipped, lengths broken, cut anywhere) end in a result or an error, quickly.
    @Test func damagedRecordingsNeverCrash() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let pictures = try Synth.ivfPictures(codec: "libvpx", source: "testsrc=size=160x120:rate=15", seconds: 1, gop: 5, in: dir.url)
        let units = try Synth.h264AccessUnits(source: "testsrc=size=160x120:rate=15", seconds: 1, gop: 5, in: dir.url)
        let sources = [Synth.mjr(header: Synth.header("a", "opus"), packets: Synth.opusRTP(try Synth.opusPackets(seconds: 0.5))),
                       Synth.mjr(header: Synth.header("v", "vp8"), packets: Synth.vp8RTP(pictures, mtu: 200)),
                       Synth.mjr(header: Synth.header("v", "vp9"), packets: Synth.vp9RTP(pictures, flexible: true, width: 160, height: 120, mtu: 200)),
                       Synth.mjr(header: Synth.header("v", "h264"), packets: Synth.h264RTP(units, mtu: 200))]
        var random = SystemRandomNumberGenerator()
        for (n, source) in sources.enumerated() {
            for round in 0..<25 {
                var bytes = [UInt8](source)
                let headerEnd = 10 + (Int(bytes[8]) << 8 | Int(bytes[9]))
                for _ in 0..<(1 + round) {
                    bytes[Int.random(in: headerEnd..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                if round % 5 == 4 { bytes = Array(bytes.prefix(Int.random(in: headerEnd..<bytes.count, using: &random))) }
                let mjr = dir.file("damaged-\(n)-\(round).mjr")
                try Data(bytes).write(to: mjr)
                _ = try? JanusRecordingConverter.convert(mjr, into: dir.url, baseName: "damaged-\(n)-\(round)")
            }
        }
    }

    // MARK: Opus

    @Test func opusBecomesMatroskaAudioAtItsRTPTimes() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let opus = try Synth.opusPackets(seconds: 2)
        var packets = Synth.opusRTP(opus)
        for i in packets.indices where i % 7 == 0 { packets[i].csrcCount = 2 }
        let result = try Self.convert(Synth.header("a", "opus"), packets, in: dir)
        let (stream, written) = try Self.packets(result.file)
        #expect(stream.codecName == "opus")
        #expect(stream.channels == 1)
        #expect(written.count == opus.count)
        #expect(Self.pts(written, scale: 48_000) == (0..<opus.count).map { $0 * 960 })
        #expect(written.map(\.bytes) == opus, "each RTP payload is one Opus packet, unchanged")
        #expect(result.firstSampleUs == Self.u)
        #expect(result.durationMs == opus.count * 20)
        #expect(result.losses.isEmpty)
        // The project's own decoder hears the tone.
        let decoder = try AudioDecoder(stream: stream)
        var samples: [Float] = []
        for p in written {
            try decoder.send(p)
            while case .frame(let s) = try decoder.receive() { samples += s.channel(at: 0) }
        }
        #expect(samples.count == opus.count * 960)
        #expect(tonePower(440, in: samples[9600..<48_000]) > 100 * tonePower(1000, in: samples[9600..<48_000]))
    }

    /// Three seconds without packets (DTX or a dead link; sequence numbers continue) stay three seconds
    /// of nothing where they were: what follows keeps its time.
    @Test func anOpusGapStaysAtItsPlace() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let opus = try Synth.opusPackets(seconds: 2)
        var packets = Synth.opusRTP(opus)
        for i in 50..<packets.count {
            packets[i].timestamp += 144_000
            packets[i].arrivalMs += 3000
        }
        let result = try Self.convert(Synth.header("a", "opus"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        let expected = (0..<50).map { $0 * 960 } + (50..<100).map { $0 * 960 + 144_000 }
        #expect(Self.pts(written, scale: 48_000) == expected)
        #expect(result.durationMs == 5000)
        #expect(result.losses.isEmpty, "a gap without missing sequence numbers is silence, not loss")
        // ffprobe agrees on where the packet after the gap is.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "packet=pts_time", "-of", "csv=p=0", result.file!.path]
        let out = Pipe()
        probe.standardOutput = out
        try probe.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        #expect(text.split(separator: "\n").map { Int(((Double($0) ?? -1) * 48_000).rounded()) } == expected)
        // The compose pipeline's reader hears the tone, then three seconds of silence, then the tone.
        let reader = try AudioTrackReader(media: .file(result.file!), file: "rec.mka", trackId: "mic", startOffsetMs: 0,
                                          ledger: LossLedger())
        var heard: [Bool] = []
        var block = [Float](repeating: 0, count: 960)
        for start in stride(from: 0, to: 5 * 48_000, by: 960) {
            for i in block.indices { block[i] = 0 }
            try block.withUnsafeMutableBufferPointer { try reader.mix(into: $0, from: start) }
            heard.append(block.contains { abs($0) > 0.01 })
        }
        #expect(heard[2..<49].allSatisfy { $0 } && heard[201..<248].allSatisfy { $0 }, "the tone before and after the gap")
        #expect(heard[51..<199].allSatisfy { !$0 }, "silence from 1.02 to 3.98 s")
    }

    /// Lost packets leave a hole (and a loss); reordering, repeats, padding-only packets, a 32-bit
    /// timestamp wrap and a sequence wrap change nothing else.
    @Test func opusSurvivesReorderingRepeatsPaddingAndWrap() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let opus = try Synth.opusPackets(seconds: 2)
        var packets = Synth.opusRTP(opus, firstSequence: 65_500, firstTimestamp: UInt32.max - 960 * 30 + 1)
        // Padding-only packets take sequence numbers of their own.
        var withPadding: [SyntheticRTP] = []
        var seq: UInt16 = 65_500
        for (i, p) in packets.enumerated() {
            var p = p
            p.sequenceNumber = seq
            seq &+= 1
            withPadding.append(p)
            if i % 10 == 5 {
                withPadding.append(SyntheticRTP(sequenceNumber: seq, timestamp: p.timestamp, payload: [], arrivalMs: p.arrivalMs,
                                                payloadType: 111, padding: 40))
                seq &+= 1
            }
        }
        packets = withPadding
        packets.removeAll { $0.timestamp == (UInt32.max - 960 * 30 + 1) &+ 960 * 70 }  // lost: the 71st
        packets.swapAt(10, 13)
        packets.swapAt(40, 41)
        packets.insert(packets[20], at: 25)
        packets.insert(packets[60], at: 61)
        let result = try Self.convert(Synth.header("a", "opus"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        let expected = (0..<opus.count).filter { $0 != 70 }.map { $0 * 960 }
        #expect(Self.pts(written, scale: 48_000) == expected)
        #expect(result.losses == [JanusLoss(fromUs: Self.u + 1_400_000, toUs: Self.u + 1_420_000, reason: .missingAudio)])
        #expect(result.warnings.contains { $0.contains("2 repeated packets") }, "\(result.warnings)")
    }

    /// A new SSRC with its own sequence numbers and timestamps starts when its first packet arrived.
    @Test func anOpusSSRCChangeContinuesFromItsArrival() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let opus = try Synth.opusPackets(seconds: 2)
        var packets = Synth.opusRTP(opus)
        for i in 50..<packets.count {
            packets[i].ssrc = 0xCAFE
            packets[i].sequenceNumber = UInt16(9000 + i)
            packets[i].timestamp = 777_777 + UInt32((i - 50) * 960)
            packets[i].arrivalMs = UInt32(1500 + (i - 50) * 20)
        }
        let result = try Self.convert(Synth.header("a", "opus"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        #expect(Self.pts(written, scale: 48_000) == (0..<50).map { $0 * 960 } + (0..<50).map { 72_000 + $0 * 960 })
        #expect(result.losses.isEmpty)
    }

    // MARK: VP8

    @Test func vp8BecomesWebMWithItsKeyframesAndColour() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let pictures = try Synth.ivfPictures(codec: "libvpx", source: "color=c=red:size=320x240:rate=15", seconds: 2, gop: 15, in: dir.url)
        #expect(pictures.count == 30)
        // Padding-only packets between pictures take sequence numbers; they are no loss.
        var packets = Synth.insertingPadding(Synth.vp8RTP(pictures)) { $0 % 4 == 1 }
        for i in packets.indices where i % 3 == 0 { packets[i].hasExtension = false }
        let result = try Self.convert(Synth.header("v", "vp8", extra: #""x": {"13": "urn:3gpp:video-orientation"}, "#), packets, in: dir)
        #expect(result.file?.pathExtension == "webm")
        let (stream, written) = try Self.packets(result.file)
        #expect(stream.codecName == "vp8")
        #expect(written.count == 30)
        #expect(written.map(\.isKeyframe) == (0..<30).map { $0 % 15 == 0 })
        #expect(Self.pts(written, scale: 15) == Array(0..<30))
        #expect(written.map(\.bytes) == pictures)
        #expect(result.width == 320 && result.height == 240)
        #expect(result.durationMs == 2000)
        #expect(result.firstSampleUs == Self.u)
        #expect(result.losses.isEmpty)
        let decoded = try Self.decode(result.file)
        let red = try #require(decoded.first)
        #expect(red.r > 200 && red.g < 60 && red.b < 60, "\(red)")
    }

    /// Starting mid-GOP, the pictures before the first keyframe are a loss; a picture missing a packet is
    /// lost with every picture after it until the next keyframe; reordering and repeats do nothing.
    @Test func vp8LossesAreRecordedAndTheRestIsWritten() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let pictures = try Synth.ivfPictures(codec: "libvpx", source: "testsrc=size=320x240:rate=15", seconds: 4, gop: 15, in: dir.url)
        var packets = Synth.vp8RTP(pictures, mtu: 300)
        let pictureOf = { (p: SyntheticRTP) in Int(p.timestamp / 6000) }
        packets.removeAll { pictureOf($0) < 5 }  // the recording starts at picture 5
        let inPicture20 = packets.indices.filter { pictureOf(packets[$0]) == 20 }
        #expect(inPicture20.count >= 3)
        packets.remove(at: inPicture20[1])
        packets.swapAt(3, 7)
        packets.swapAt(100, 102)
        packets.insert(packets[50], at: 55)
        let start = packets.first { pictureOf($0) == 5 }!
        // Arrival counts from the first packet in the file, whose RTP time is the reference.
        packets = packets.map { var p = $0; p.arrivalMs -= start.arrivalMs; return p }
        let result = try Self.convert(Synth.header("v", "vp8"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        #expect(Self.pts(written, scale: 15) == Array(0..<5) + Array(15..<45), "pictures 15-19 and 30-59, from the first keyframe")
        #expect(written.first?.isKeyframe == true)
        let us = { (picture: Int) in Self.u + Int64(picture - 5) * 1_000_000 / 15 }
        #expect(result.firstSampleUs == us(15))
        #expect(result.losses == [JanusLoss(fromUs: us(5), toUs: us(15), reason: .beforeFirstKeyframe),
                                  JanusLoss(fromUs: us(20), toUs: us(21), reason: .missingPackets),
                                  JanusLoss(fromUs: us(21), toUs: us(30), reason: .waitingForKeyframe)])
        #expect(result.durationMs == 45 * 1000 / 15)
        #expect(try Self.decode(result.file).sizes == ["320x240"])
    }

    /// A switch to another simulcast layer: a new SSRC, new sequence numbers and timestamps, a bigger
    /// picture from its first keyframe, placed when it arrived.
    @Test func vp8LayerSwitchChangesSizeAndKeepsTime() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let low = try Synth.ivfPictures(codec: "libvpx", source: "color=c=blue:size=320x240:rate=15", seconds: 1, gop: 15, in: dir.url)
        let high = try Synth.ivfPictures(codec: "libvpx", source: "color=c=blue:size=640x360:rate=15", seconds: 1, gop: 15, in: dir.url)
        let packets = Synth.vp8RTP(low) + Synth.vp8RTP(high, firstSequence: 40_000, firstTimestamp: 3_000_000_000, ssrc: 0xBEEF,
                                                         firstArrivalMs: 1200)
        let result = try Self.convert(Synth.header("v", "vp8"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        #expect(Self.pts(written, scale: 15) == Array(0..<15) + Array(18..<33), "the new layer starts 1.2 s in, when it arrived")
        #expect(result.width == 640 && result.height == 360)
        #expect(try Self.decode(result.file).sizes == ["320x240", "640x360"])
    }

    // MARK: H.264

    @Test func h264FromSingleNALSTAPAAndFUABecomesMPEGTS() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let units = try Synth.h264AccessUnits(source: "color=c=0x00C000:size=320x240:rate=15", seconds: 2, gop: 15, in: dir.url)
        #expect(units.count == 30)
        let packets = Synth.h264RTP(units, mtu: 200)
        #expect(packets.contains { $0.payload[0] & 0x1F == 24 } && packets.contains { $0.payload[0] & 0x1F == 28 })
        let result = try Self.convert(Synth.header("v", "h264"), packets, in: dir)
        #expect(result.file?.pathExtension == "ts")
        let (stream, written) = try Self.packets(result.file)
        #expect(stream.codecName == "h264")
        #expect(stream.width == 320 && stream.height == 240)
        #expect(written.count == 30)
        #expect(written.map(\.isKeyframe) == (0..<30).map { $0 % 15 == 0 })
        #expect(result.width == 320 && result.height == 240)
        #expect(result.durationMs == 2000)
        let green = try #require(try Self.decode(result.file).first)
        #expect(green.g > 150 && green.r < 60 && green.b < 60, "\(green)")
    }

    /// An FU-A without its end loses its picture (and the rest of the GOP); STAP-B is refused with a warning.
    @Test func h264BrokenFragmentsAndInterleavedModeAreLosses() throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let units = try Synth.h264AccessUnits(source: "testsrc=size=320x240:rate=15", seconds: 3, gop: 15, in: dir.url)
        var packets = Synth.h264RTP(units, mtu: 200)
        let fuEnd = try #require(packets.lastIndex { $0.timestamp == 3 * 6000 && $0.payload[0] & 0x1F == 28 && $0.payload[1] & 0x40 != 0 })
        packets[fuEnd].payload[1] &= ~0x40  // the end fragment claims to be a middle one
        packets[fuEnd].marker = false
        let stapB = try #require(packets.firstIndex { $0.timestamp == 33 * 6000 })
        packets[stapB].payload[0] = packets[stapB].payload[0] & 0xE0 | 25
        let result = try Self.convert(Synth.header("v", "h264"), packets, in: dir)
        let written = try Self.packets(result.file).packets
        #expect(written.count == 3 + 18, "pictures 0-2 and 15-32")
        #expect(result.losses.map(\.reason) == [.missingPackets, .waitingForKeyframe, .unreadablePayload, .waitingForKeyframe])
        #expect(result.warnings.contains { $0.contains("rec.mjr") && $0.contains("STAP-B") }, "\(result.warnings)")
    }

    // MARK: VP9

    @Test(arguments: [false, true])
    func vp9InBothDescriptorModesBecomesWebM(flexible: Bool) throws {
        let dir = ScratchDirectory("janus")
        defer { dir.remove() }
        let pictures = try Synth.ivfPictures(codec: "vp9", source: "color=c=0x0040FF:size=320x240:rate=15", seconds: 2, gop: 15, in: dir.url)
        let result = try Self.convert(Synth.header("v", "vp9"), Synth.vp9RTP(pictures, flexible: flexible, width: 320, height: 240), in: dir)
        let (stream, written) = try Self.packets(result.file)
        #expect(stream.codecName == "vp9")
        #expect(written.count == pictures.count)
        #expect(written.map(\.bytes) == pictures)
        #expect(written.map(\.isKeyframe) == pictures.indices.map { $0 % 15 == 0 })
        #expect(result.width == 320 && result.height == 240)
        let blue = try #require(try Self.decode(result.file).first)
        #expect(blue.b > 200 && blue.r < 60, "\(blue)")
    }

    /// A recording with many losses is told in a few lines: five with their times, then one counting the rest.
    @Test func manyLossesAreToldInAFewLines() {
        let losses = (0..<1000).map { JanusLoss(fromUs: Int64($0) * 1_000_000, toUs: Int64($0) * 1_000_000 + 20_000, reason: .missingAudio) }
        let lines = JanusLoss.summary(losses, of: "rec/a.mjr")
        #expect(lines.count == 6)
        #expect(lines[0] == "rec/a.mjr: missing audio packets from 0 to 20000 µs")
        #expect(lines[5] == "rec/a.mjr: 995 more losses (19900 ms in all) up to 999020000 µs")
        #expect(JanusLoss.summary(Array(losses.prefix(5)), of: "a.mjr").count == 5)
        #expect(JanusLoss.summary([], of: "a.mjr").isEmpty)
    }
}

