import ArgumentParser
import StageMixOptions

/// Where a composition goes: `--out` and `--overwrite`, shared by `compose` and `enqueue`.
struct ComposeTarget: ParsableArguments {
    @Option(help: "Output directory; written whole or not at all, never over a folder StageMix did not write.")
    var out: String

    @Flag(help: "Replace an earlier StageMix output at --out (never a folder StageMix did not write).")
    var overwrite = false

    /// All of a composition's options: the plan's, the encoder's and this one.
    func options(plan: PlanOptions, encode: EncodeOptions) -> ComposeOptions {
        var options = ComposeOptions()
        plan.apply(to: &options)
        encode.apply(to: &options)
        options.overwrite = overwrite ? true : nil
        return options
    }
}
