/// Where the files of one VideoSDK track recording (one participant's kind) fall on the wall clock.
/// VideoSDK starts a new file on each unmute or camera restart and gives no time per file: only the
/// recording's ISO `start` and `end`. So, in this order:
///
/// - files whose own timestamps continue one clock (each starts after the one before ends) are
///   placed by them from the recording's start: as exact as the recorder's clock;
/// - otherwise (each file starts its timestamps at zero) the first file starts at the recording's
///   start and the last ends at its end; what the files do not fill is shared equally among the
///   pauses between them (and files whose length is unknown, being lost). Two files are placed
///   exactly; more are each within that unfilled time of their place;
/// - without an end the files follow one another with no pause, which the alignment says.
///
/// The first file is at the recording's start: a participant who was muted when the recording
/// started is placed early by as long.
struct VideoSDKPlacement {
    struct File: Sendable {
        /// The file's first timestamp, ms; nil when it cannot be read.
        var firstMs: Int?
        var durationMs: Int64?
    }

    struct Placed: Equatable, Sendable {
        var startMs: Int64
        var durationMs: Int64
    }

    var placed: [Placed]
    var basis: String
    var isExact: Bool

    init(_ files: [File], start: Int64, end: Int64?) {
        let known = files.compactMap(\.durationMs)
        if files.count > 1, Self.shareOneClock(files) {
            let first = Int64(files[0].firstMs!)
            placed = files.map { Placed(startMs: start + Int64($0.firstMs!) - first, durationMs: $0.durationMs!) }
            basis = "the files' own timestamps, which continue one clock, from the recording's start"
            isExact = true
            return
        }
        let unknown = files.count - known.count
        let flexible = max(files.count - 1, 0) + unknown
        let unfilled = end.map { max(0, $0 - start - known.reduce(0, +)) } ?? 0
        let share = flexible > 0 ? unfilled / Int64(flexible) : 0
        var at = start
        placed = []
        for (i, file) in files.enumerated() {
            let length = file.durationMs ?? share
            placed.append(Placed(startMs: at, durationMs: length))
            at += length + (i < files.count - 1 ? share : 0)
        }
        switch (files.count, end) {
        case (1, _):
            basis = "the recording's start (exact if the participant was sending when it started)"
            isExact = unknown == 0
        case (_, nil):
            basis = "the recording's start, the files one after another: without the recording's end the pauses between them are unknown"
            isExact = false
        case (2, _) where unknown == 0:
            basis = "the recording's start for the first file and its end for the last"
            isExact = true
        default:
            basis = "the recording's start for the first file and its end for the last, the \(unfilled) ms they do not fill shared among "
                + "the \(flexible) pauses and lost files between: each within \(unfilled) ms of its place"
            isExact = false
        }
    }

    /// True when every file's timestamps begin after the previous file's end (within 20 ms) and the
    /// clock does not start again at zero: one recorder clock across the files.
    static func shareOneClock(_ files: [File]) -> Bool {
        guard files.allSatisfy({ $0.firstMs != nil && $0.durationMs != nil }) else { return false }
        for (before, after) in zip(files, files.dropFirst()) {
            guard Int64(after.firstMs!) >= Int64(before.firstMs!) + before.durationMs! - 20, after.firstMs! > before.firstMs! + 100 else { return false }
        }
        return true
    }
}
