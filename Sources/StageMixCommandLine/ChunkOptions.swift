public import ArgumentParser
public import StageMixOptions

/// `--chunk-seconds` and `--jobs`: one composition's video encoded in time ranges side by side. Checked
/// with the encoding options (a chunk is a whole number of segments), in the command's `validate()`.
public struct ChunkOptions: ParsableArguments {
    @Option(help: "Encode the video in chunks of this many seconds, side by side, then join them into the output a whole run writes: a whole multiple of --segment-seconds (docs/chunks.md).")
    public var chunkSeconds: Double?

    @Option(help: "Chunks encoded at once, each by a process of its own (1 to \(ComposeOptions.jobsRange.upperBound)). Default: one per core.")
    public var jobs: Int?

    public init() {}

    /// These options' part of ``ComposeOptions``.
    public func apply(to options: inout ComposeOptions) {
        options.chunkSeconds = chunkSeconds
        options.jobs = jobs
    }
}
