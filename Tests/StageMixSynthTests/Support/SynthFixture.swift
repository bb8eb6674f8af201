import Foundation
import StageMixTestSupport
import StageMixMedia
import StageMixSynth

/// A short capture synthesized once per codec and shared by the tests that read it.
struct SynthFixture: Sendable {
    let directory: URL
    let expected: ExpectedMedia

    /// 3.5 s: Maya (tone 310 Hz) on from 0; Omar (silent mic) from 0.5 s, camera paused
    /// 1.5-2.3 s, leaves at 3 s.
    static let scenario: Scenario = {
        let maya = ScenarioParticipant.palette(0, id: "p-maya", name: "Maya", tracks: [
            ScenarioTrack(id: "TR_maya_cam", source: .camera), ScenarioTrack(id: "TR_maya_mic", source: .microphone)])
        var omar = ScenarioParticipant.palette(1, id: "p-omar", name: "Omar", tracks: [
            ScenarioTrack(id: "TR_omar_cam", source: .camera), ScenarioTrack(id: "TR_omar_mic", source: .microphone)])
        omar.toneHz = nil
        return Scenario(sessionId: "ls-test-short", durationMs: 3_500, participants: [maya, omar], events: [
            .joined(0, maya.id), .pinned(0, maya.id), .published(0, "TR_maya_cam"), .published(0, "TR_maya_mic"),
            .joined(500, omar.id), .pinned(500, omar.id), .published(500, "TR_omar_cam"), .published(500, "TR_omar_mic"),
            .streamState(1_500, "TR_omar_cam", "paused"), .streamState(2_300, "TR_omar_cam", "active"),
            .left(3_000, omar.id),
        ])
    }()

    static let vp8 = Result { try make(.vp8) }
    static let h264 = Result { try make(.h264) }

    static func shared(_ codec: SynthCodec) throws -> SynthFixture {
        try (codec == .vp8 ? vp8 : h264).get()
    }

    private static func make(_ codec: SynthCodec) throws -> SynthFixture {
        MediaLog.setLevel(.error)
        let dir = ScratchDirectory("synth-\(codec)").file("capture")
        let expected = try CaptureSynthesizer(codec: codec).synthesize(scenario, to: dir)
        return SynthFixture(directory: dir, expected: expected)
    }
}

/// Every decoded frame of a file's video stream, with the stream's start time in seconds.
func decodeAllVideo(_ url: URL) throws -> (stream: StreamInfo, firstPts: Double, frames: [VideoFrame]) {
    let demuxer = try Demuxer(url: url)
    guard let stream = demuxer.firstStream(ofType: .video) else { throw MediaError(.invalidData, "no video in \(url.path)") }
    let decoder = try VideoDecoder(stream: stream, threadCount: 1)
    var frames: [VideoFrame] = []
    func collect() throws { while case .frame(let f) = try decoder.receive() { frames.append(f) } }
    while let packet = try demuxer.readPacket() {
        guard packet.streamIndex == stream.index else { continue }
        try decoder.send(packet)
        try collect()
    }
    try decoder.send(nil)
    try collect()
    return (stream, Double(stream.startTime ?? 0) * stream.timeBase.doubleValue, frames)
}

/// Every decoded sample of a mono Opus file.
func decodeAllOpus(_ url: URL) throws -> [Float] {
    let demuxer = try Demuxer(url: url)
    guard let stream = demuxer.firstStream(ofType: .audio) else { throw MediaError(.invalidData, "no audio in \(url.path)") }
    let decoder = try OpusDecoder(stream: stream)
    var samples: [Float] = []
    while let packet = try demuxer.readPacket() {
        guard packet.streamIndex == stream.index else { continue }
        samples += try decoder.decode(packet).interleaved
    }
    return samples
}
