/// A block of decoded or to-be-encoded audio as 32-bit float samples in
/// [-1, 1], stored interleaved (L R L R ...).
public struct AudioSamples: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Interleaved samples; `count == frameCount * channels`.
    public var interleaved: [Float]

    public init(sampleRate: Int, channels: Int, interleaved: [Float] = []) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.interleaved = interleaved
    }

    /// Builds interleaved samples from one array per channel (all the same length).
    public init(sampleRate: Int, planar: [[Float]]) {
        let channels = planar.count
        let frames = planar.first?.count ?? 0
        var out = [Float](repeating: 0, count: frames * channels)
        for (c, plane) in planar.enumerated() {
            for i in 0..<frames { out[i * channels + c] = plane[i] }
        }
        self.init(sampleRate: sampleRate, channels: channels, interleaved: out)
    }

    /// Samples per channel.
    public var frameCount: Int { channels == 0 ? 0 : interleaved.count / channels }

    /// One array per channel.
    public var planar: [[Float]] {
        (0..<channels).map { channel(at: $0) }
    }

    /// The samples of one channel.
    public func channel(at index: Int) -> [Float] {
        stride(from: index, to: interleaved.count, by: channels).map { interleaved[$0] }
    }
}
