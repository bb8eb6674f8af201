public import StageMixOptions

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
