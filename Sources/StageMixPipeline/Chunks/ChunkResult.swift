public import Foundation

/// What a chunk did: its frames, what it could not read, where its CPU went, and how its video
/// files are to be read back (the encoder's reorder delay, which the files do not keep).
public struct ChunkResult: Sendable, Codable {
    public var index: Int
    public var from: Int
    public var to: Int
    /// Per rendition: how many of its frames the first packet's decoding time lies before its
    /// presentation (x264's B-frame delay), the same for every chunk of a run.
    public var reorderDelayFrames: [Int]
    /// Per rendition: the packets written, one per frame of that rendition.
    public var packets: [Int]
    /// The whole chunk process from its start, every thread (x264's included).
    public var cpuSeconds: CPUSeconds
    public var wallSeconds: Double
    public var lostMedia: [String: String]
    public var warnings: [String]
    /// The chunk's loss notes as taken (session time, perhaps open-ended), for the run to merge.
    public var lossNotes: [MediaLoss]
    public var decodedFrames: [String: Int]
    public var layerStandIns: [LayerStandIn]

    public func write(to url: URL) throws { try JSONEncoder().encode(self).write(to: url) }
    public static func read(from url: URL) throws -> ChunkResult { try JSONDecoder().decode(ChunkResult.self, from: Data(contentsOf: url)) }
}
