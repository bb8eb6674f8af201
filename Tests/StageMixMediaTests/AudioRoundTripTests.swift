import Foundation
import Testing
import StageMixTestSupport
import StageMixMedia

@Suite struct AudioRoundTripTests {
    @Test func aacSineSurvivesMP4() throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file("tone.m4a")
        let count = 48_000
        let tone = SyntheticMedia.sine(frequency: 440, count: count)
        let encoder = try AudioEncoder(sampleRate: 48_000, channels: 2, bitrate: 128_000)
        #expect(encoder.frameSize == 1024)
        let muxer = try Muxer(url: url, format: "mp4")
        let stream = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
        // Odd block sizes exercise the encoder's frame buffering.
        var offset = 0
        while offset < count {
            let n = min(700, count - offset)
            let block = Array(tone[offset..<(offset + n)])
            try encoder.send(planar: [block, block])
            try SyntheticMedia.drain(encoder.receive, into: muxer, stream: stream)
            offset += n
        }
        try encoder.sendEndOfStream()
        try SyntheticMedia.drain(encoder.receive, into: muxer, stream: stream)
        try muxer.finish()

        let demuxer = try Demuxer(url: url)
        let info = try #require(demuxer.firstStream(ofType: .audio))
        #expect(info.codecName == "aac" && info.sampleRate == 48_000 && info.channels == 2)
        let decoder = try AudioDecoder(stream: info)
        var decoded = AudioSamples(sampleRate: 48_000, channels: 2)
        func collect() throws -> Bool {
            while true {
                switch try decoder.receive() {
                case .frame(let s): decoded.interleaved += s.interleaved
                case .needsInput: return true
                case .endOfStream: return false
                }
            }
        }
        while let p = try demuxer.readPacket() {
            try decoder.send(p)
            _ = try collect()
        }
        try decoder.send(nil)
        while try collect() {}
        // MP4's edit list trims the AAC priming; the last frame may be padded.
        #expect(decoded.frameCount >= count && decoded.frameCount < count + 1024, "\(decoded.frameCount) samples")
        let f = Goertzel.dominantFrequency(decoded.channel(at: 1)[4800..<43200], sampleRate: 48_000, range: 100...2000)
        #expect(abs(f - 440) <= 10, "peak at \(f) Hz")
    }
}
