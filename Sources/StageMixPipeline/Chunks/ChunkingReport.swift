/// What `report.json` says of a chunked run: each chunk's range and what it cost.
public struct ChunkingReport: Sendable, Codable, Equatable {
    public struct Chunk: Sendable, Codable, Equatable {
        public var index: Int
        public var fromSeconds: Double
        public var toSeconds: Double
        /// The chunk's process, every thread.
        public var cpuSeconds: Double
        public var wallSeconds: Double
    }

    public var chunkSeconds: Double
    public var jobs: Int
    public var chunks: [Chunk]
    /// This process: the loudness pass, the audio mix and AAC, and joining the chunks' video.
    public var joinCPUSeconds: Double
}
