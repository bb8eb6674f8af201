public import StageMixOptions
public import Foundation

/// How a run is cut into chunks: `--chunk-seconds`, `--jobs`, the options every chunk rebuilds its
/// settings from, and what runs a chunk.
public struct Chunking: Sendable {
    public var seconds: Double
    public var jobs: Int
    public var options: ComposeOptions
    public var runner: any ChunkRunner
    /// On the queue, the join: the chunks were encoded by workers into this work folder
    /// (``ChunkRun/chunkFolder(_:in:)``), and are joined from there, not run.
    public var encodedIn: URL?
    /// Whether the session's audio is work of its own beside the chunks (``SessionAudioJob``), which the
    /// join remuxes; false on the queue for a run planned by a version before it, whose join mixes the audio itself.
    public var audioApart: Bool

    public init(seconds: Double, jobs: Int, options: ComposeOptions, runner: any ChunkRunner, encodedIn: URL? = nil, audioApart: Bool = true) {
        self.seconds = seconds
        self.jobs = max(1, jobs)
        self.options = options
        self.runner = runner
        self.encodedIn = encodedIn
        self.audioApart = audioApart
    }
}
