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
    /// The session's audio work (loudness pass, mix, AAC) when it ran beside the chunks; nil when the join mixed it.
    public var audio: Audio?
    /// This process: joining the chunks' video and the audio's packets (and, when `audio` is nil, the
    /// loudness pass and the audio's mix and AAC).
    public var joinCPUSeconds: Double

    public struct Audio: Sendable, Codable, Equatable {
        /// Its process, every thread.
        public var cpuSeconds: Double
        public var wallSeconds: Double
    }
}
