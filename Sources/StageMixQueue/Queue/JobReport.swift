import Foundation

/// How `stagemix jobs` shows jobs to a person.
public enum JobReport {
    public static func table(_ jobs: [Job]) -> String {
        var lines = [pad(["ID", "STATE", "ATTEMPTS", "PROGRESS", "CAPTURE", "LAST ERROR"])]
        for job in jobs {
            lines.append(pad([
                job.id, job.state.rawValue + (job.cancelRequested && job.state == .running ? " (cancelling)" : ""),
                "\(job.attempt)/\(job.maxAttempts)", String(format: "%.1f%%", job.progress),
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
            attempts:     \(job.attempt) of \(job.maxAttempts)
            progress:     \(String(format: "%.1f", job.progress)) %
            lease:        \(job.leaseOwner.map { "\($0) until \(time(job.leaseExpiresAt))" } ?? "-")
            run after:    \(time(job.runAfter))
            created:      \(time(job.createdAt))
            updated:      \(time(job.updatedAt))
            last error:   \(job.lastError ?? "-")
            spec:         \(job.spec.canonicalJSON)
            """
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
