import Foundation
import StageMixMedia

/// Writes and reads back the synthetic media the tests reason about.
enum SyntheticMedia {
    /// Encodes `frames` pictures of one solid colour into `url`.
    static func writeSolidVideo(to url: URL, format: String, settings: VideoEncoderSettings,
                                color: RGBColor, frames: Int) throws {
        let encoder = try VideoEncoder(settings: settings)
        let muxer = try Muxer(url: url, format: format)
        let stream = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
        let canvas = try CanvasFrame(width: settings.width, height: settings.height, colourSpace: settings.colourSpace)
        for i in 0..<frames {
            try canvas.fill(color: color)
            try encoder.send(canvas, pts: Int64(i))
            try drain(encoder.receive, into: muxer, stream: stream)
        }
        try encoder.sendEndOfStream()
        try drain(encoder.receive, into: muxer, stream: stream)
        try muxer.finish()
    }

    /// Moves every available packet from an encoder into the muxer.
    static func drain(_ receive: () throws -> EncoderOutput, into muxer: Muxer, stream: Int) throws {
        while case .packet(let p) = try receive() { try muxer.write(p, toStream: stream) }
    }

    /// Decodes every frame of the first video stream of `url`.
    static func decodeVideo(_ url: URL) throws -> [VideoFrame] {
        let demuxer = try Demuxer(url: url)
        let stream = try require(demuxer.firstStream(ofType: .video))
        let decoder = try VideoDecoder(stream: stream, threadCount: 1)
        var frames: [VideoFrame] = []
        func collect() throws -> Bool {
            while true {
                switch try decoder.receive() {
                case .frame(let f): frames.append(f)
                case .needsInput: return true
                case .endOfStream: return false
                }
            }
        }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream.index else { continue }
            try decoder.send(packet)
            _ = try collect()
        }
        try decoder.send(nil)
        while try collect() {}
        return frames
    }

    /// `count` samples of a sine at `frequency` Hz, amplitude 0.5.
    static func sine(frequency: Double, count: Int, sampleRate: Int = 48_000) -> [Float] {
        (0..<count).map { Float(0.5 * sin(2 * .pi * frequency * Double($0) / Double(sampleRate))) }
    }
}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MediaError(.invalidData, "expected value missing") }
    return value
}
