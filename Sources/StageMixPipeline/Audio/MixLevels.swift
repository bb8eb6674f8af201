/// How the mix's gains are set: not at all (`--loudness off`), by the whole-session pass run before
/// the mix (``LoudnessAnalysis``), or as the audio comes, from what has been heard so far
/// (``CausalLoudness``, for `compose --follow`).
enum MixLevels {
    case none
    case fixed(LoudnessAnalysis.Result)
    case causal(CausalLoudness)

    init(_ levels: LoudnessAnalysis.Result?) {
        self = levels.map { .fixed($0) } ?? .none
    }

    var normalised: Bool {
        if case .none = self { return false }
        return true
    }
}
