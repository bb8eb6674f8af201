public import ArgumentParser
public import StageMixOptions

/// Where a composition goes: `--out` and `--overwrite`, shared by `compose` and `enqueue`.
public struct ComposeTarget: ParsableArguments {
    @Option(help: "Output folder, or s3://bucket/prefix; written whole or not at all, never over what StageMix did not write.")
    public var out: String

    @Flag(help: "Replace an earlier StageMix output at --out (never a folder StageMix did not write).")
    public var overwrite = false

    public init() {}

    /// All of a composition's options: the plan's, the encoder's and this one.
    public func options(plan: PlanOptions, encode: EncodeOptions, chunks: ChunkOptions? = nil) -> ComposeOptions {
        var options = ComposeOptions()
        plan.apply(to: &options)
        encode.apply(to: &options)
        chunks?.apply(to: &options)
        options.overwrite = overwrite ? true : nil
        return options
    }
}
