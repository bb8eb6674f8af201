import Foundation
import StageMixMedia

/// Encodes one simulcast layer of a synthetic video track into its own file.
struct VideoLayerWriter {
    var url: URL
    var codec: SynthCodec
    var width: Int
    var height: Int
    var frameRate: Int
    var keyframeInterval: Int
    var pattern: TestPattern
    var colourSpace: YUVColourSpace

    /// Writes `frames` (pts = frame index, in 1/frameRate) and finishes the file.
    func write(_ frames: [SynthFrame]) throws(MediaError) {
        let encoder = try VideoEncoder(settings: codec.settings(width: width, height: height, frameRate: frameRate,
                                                                keyframeInterval: keyframeInterval, colourSpace: colourSpace))
        let muxer = try Muxer(url: url, format: codec.fileExtension)
        let stream = try muxer.addStream(from: encoder)
        try muxer.writeHeader()
        let canvas = try CanvasFrame(width: width, height: height, colourSpace: colourSpace)
        for frame in frames {
            try pattern.draw(on: canvas, atMs: frame.sessionMs)
            try encoder.send(canvas, pts: Int64(frame.index), forceKeyframe: frame.resumes)
            try drain(encoder, into: muxer, stream: stream)
        }
        try encoder.sendEndOfStream()
        try drain(encoder, into: muxer, stream: stream)
        try muxer.finish()
    }

    private func drain(_ encoder: VideoEncoder, into muxer: Muxer, stream: Int) throws(MediaError) {
        while case .packet(let p) = try encoder.receive() { try muxer.write(p, toStream: stream) }
    }
}
