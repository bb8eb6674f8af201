public import Foundation
public import StageMixOptions

/// Runs one chunk's job, written at a path, to its end: on this machine, `stagemix compose-chunk JOB`
/// in a child process. Throws if the chunk failed; stops it soon after `shouldStop` says so.
public protocol ChunkRunner: Sendable {
    func run(job: URL, shouldStop: @escaping @Sendable () -> Bool) throws
}

/// How a run is cut into chunks: `--chunk-seconds`, `--jobs`, the options every chunk rebuilds its
/// settings from, and what runs a chunk.
public struct Chunking: Sendable {
    public var seconds: Double
    public var jobs: Int
    public var options: ComposeOptions
    public var runner: any ChunkRunner

    public init(seconds: Double, jobs: Int, options: ComposeOptions, runner: any ChunkRunner) {
        self.seconds = seconds
        self.jobs = max(1, jobs)
        self.options = options
        self.runner = runner
    }
}

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
