import Foundation
import Testing
import StageMixTestSupport
import StageMixMedia

@Suite struct OpusRoundTripTests {
    @Test(arguments: [1, 2])
    func sineSurvivesOggOpus(channels: Int) throws {
        let dir = ScratchDirectory("media")
        defer { dir.remove() }
        let url = dir.file("tone.ogg")
        let count = 48_000 + 123  // not a multiple of the 960-sample frame
        let tone = SyntheticMedia.sine(frequency: 440, count: count)

        let encoder = try OpusEncoder(channels: channels, bitrate: 64_000)
        let muxer = try Muxer(url: url, format: "ogg")
        let stream = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
        let input = AudioSamples(sampleRate: 48_000, planar: Array(repeating: tone, count: channels))
        for packet in try encoder.encode(input) + encoder.finish() {
            try muxer.write(packet, toStream: stream)
        }
        try muxer.finish()

        let demuxer = try Demuxer(url: url)
        let info = try #require(demuxer.firstStream(ofType: .audio))
        #expect(info.codecName == "opus")
        #expect(info.channels == channels)
        let decoder = try OpusDecoder(stream: info)
        #expect(decoder.preSkip == encoder.preSkip)
        #expect(decoder.preSkip > 0)
        var decoded = AudioSamples(sampleRate: 48_000, channels: channels)
        while let packet = try demuxer.readPacket() {
            decoded.interleaved += try decoder.decode(packet).interleaved
        }
        #expect(decoded.frameCount == count)
        for c in 0..<channels {
            let samples = decoded.channel(at: c)
            let f = Goertzel.dominantFrequency(samples[4800..<43200], sampleRate: 48_000, range: 100...2000)
            #expect(abs(f - 440) <= 10, "channel \(c) peaks at \(f) Hz")
        }
        // Pre-skip handled: the decoded tone starts in phase with the input.
        let early = decoded.channel(at: 0)[480..<960]
        let error = zip(early, tone[480..<960]).map { abs($0 - $1) }.max()!
        #expect(error < 0.1, "first samples are shifted (max error \(error))")
    }
}
