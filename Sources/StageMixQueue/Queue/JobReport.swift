import Foundation

/// How `stagemix jobs` shows jobs to a person.
public enum JobReport {
    public static func table(_ jobs: [Job]) -> String {
        var lines = [pad(["ID", "STATE", "ATTEMPTS", "PROGRESS", "CAPTURE", "LAST ERROR"])]
        for job in jobs {
            lines.append(pad([
                job.id, job.state.rawValue + (job.cancelRequested && job.state == .running ? " (cancelling)" : ""),
                "\(job.attemptsUsed)/\(job.maxAttempts)", String(format: "%.1f%%", job.progress),
                job.spec.capture, oneLine(job.lastError ?? ""),
            ]))
        }
        return lines.joined(separator: "\n")
    }

    public static func detail(_ job: Job) -> String {
        func time(_ t: Double?) -> String {
            t.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? "-"
        }
        return """
            id:           \(job.id)
            state:        \(job.state.rawValue)\(job.cancelRequested ? " (cancel requested)" : "")
            attempts:     \(job.attemptsUsed) of \(job.maxAttempts)
            progress:     \(String(format: "%.1f", job.progress)) %\(following(job))
            lease:        \(job.leaseOwner.map { "\($0) until \(time(job.leaseExpiresAt))" } ?? "-")
            run after:    \(time(job.runAfter))
            created:      \(time(job.createdAt))
            updated:      \(time(job.updatedAt))
            last error:   \(job.lastError ?? "-")
            spec:         \(job.spec.canonicalJSON)
            """
    }

    /// A followed composition's positions while it runs, as a line of its own (its percent stays 0 until
    /// the session has ended); nothing for any other job.
    private static func following(_ job: Job) -> String {
        guard job.state == .running, let position = job.followPosition else { return "" }
        return String(format: "\nfollowing:    recorded %.1f s, composed %.1f s (%.1f s behind)", position.recordedSeconds,
                      position.composedSeconds, max(0, position.recordedSeconds - position.composedSeconds))
    }

    /// A chunked composition's chunks in a line: how many are in each state.
    public static func chunkSummary(_ job: Job, chunks: [Job]) -> String? {
        guard let phase = job.phase else { return nil }
        let counts = JobState.allCases.compactMap { state -> String? in
            let n = chunks.filter { $0.state == state }.count
            return n == 0 ? nil : "\(n) \(state.rawValue)"
        }
        let waiting = job.isJoinReady ? " (waiting for a worker's join slot)" : job.phase == .join && job.state == .running ? " (joining its chunks as they land)" : ""
        let chunkLine = "chunks:       \(chunks.count)\(counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))"
        // A phase is where a composition is under way; a published one has none left, an ended one says where it stopped.
        switch job.state {
        case .succeeded: return chunkLine
        case .dead, .cancelled: return "phase:        \(phase.rawValue) (when it ended)\n" + chunkLine
        case .queued, .running, .failed: return "phase:        \(phase.rawValue)\(waiting)\n" + chunkLine
        }
    }

    /// A chunked composition's session audio job in a line: its state and attempts, and its error if any.
    public static func sessionAudioLine(_ audio: Job) -> String {
        "audio:        \(audio.state.rawValue)\(audio.cancelRequested && audio.state == .running ? " (cancelling)" : ""), attempt \(audio.attempt) of \(audio.maxAttempts)"
            + (audio.lastError.map { ": " + oneLine($0) } ?? "")
    }

    /// One line per chunk: its number, frames' seconds are in run.json; here state, attempts, progress, wait and error.
    public static func chunkTable(_ chunks: [Job]) -> String {
        var lines = ["CHUNK  STATE       ATTEMPTS  PROGRESS  WAITED   LAST ERROR"]
        for chunk in chunks {
            let waited = chunk.startedAt.map { String(format: "%.1f s", $0 - chunk.createdAt) } ?? "-"
            lines.append(String(format: "%5d  %@  %@  %@  %@  %@", chunk.chunk ?? 0,
                                (chunk.state.rawValue + (chunk.cancelRequested && chunk.state == .running ? "*" : "")).padding(toLength: 10, withPad: " ", startingAt: 0),
                                "\(chunk.attempt)/\(chunk.maxAttempts)".padding(toLength: 8, withPad: " ", startingAt: 0),
                                String(format: "%.1f%%", chunk.progress).padding(toLength: 8, withPad: " ", startingAt: 0),
                                waited.padding(toLength: 7, withPad: " ", startingAt: 0), oneLine(chunk.lastError ?? "")))
        }
        return lines.joined(separator: "\n")
    }

    private static func oneLine(_ s: String) -> String {
        let flat = s.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 60 ? String(flat.prefix(57)) + "..." : flat
    }

    private static func pad(_ cells: [String]) -> String {
        let widths = [36, 10, 8, 8, 30, 0]
        return zip(cells, widths).map { cell, width in
            width == 0 || cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count)
        }.joined(separator: "  ")
    }
}
