import Foundation
import StageMixOptions
import StageMixPipeline

/// Shows compose progress: a bar on a terminal, JSON lines otherwise (for workers and scripts); for
/// `compose --follow`, the recorded and composed positions, which a percent cannot give.
struct ProgressDisplay {
    let isTerminal = isatty(STDERR_FILENO) != 0 && isatty(STDOUT_FILENO) != 0

    func show(_ p: ComposeProgress) {
        if isTerminal {
            let width = 30
            let filled = Int(p.percent / 100 * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let line = String(format: "\r[%@] %5.1f%%  %.1fx  %@ left ", bar, p.percent, p.speed, Self.clock(p.etaSeconds))
            try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
        } else {
            let line = ComposeChild.ProgressLine(percent: p.percent, speed: p.speed, etaSeconds: p.etaSeconds)
            try? FileHandle.standardOutput.write(contentsOf: Data((line.text + "\n").utf8))
        }
    }

    /// A followed composition's positions, in ms of session time.
    func showFollowing(recordedMs: Int, composedMs: Int) {
        let line = ComposeChild.FollowLine(recordedMs: recordedMs, composedMs: composedMs)
        if isTerminal {
            let text = String(format: "\rrecorded %.1f s, composed %.1f s ", line.recordedSeconds, line.composedSeconds)
            try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
        } else {
            try? FileHandle.standardOutput.write(contentsOf: Data((line.text + "\n").utf8))
        }
    }

    func finish() {
        if isTerminal { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
