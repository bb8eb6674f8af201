extension ComposeRun.Report {
    /// Lines for stderr: one per loss of a file that was read (damaged, cut short), the first `limit`
    /// of them, then how many more `report.json` lists. A file lost whole is told by
    /// ``lostMediaLines(limit:)`` instead, once.
    public func lossSummary(limit: Int = 8) -> [String] {
        let shown = losses.filter { lostMedia[$0.file] == nil }
        guard !shown.isEmpty else { return [] }
        var lines = ["\(shown.count) stretch\(shown.count == 1 ? "" : "es") of lost media (report.json \"losses\"):"]
        lines += shown.prefix(limit).map { "  \($0.summary)" }
        if shown.count > limit { lines.append("  ... and \(shown.count - limit) more") }
        return lines
    }

    /// Lines for stderr: one per file the composition needed and could not read, naming it once, with
    /// why and the stretches of the session it was needed for (the first `limit`).
    public func lostMediaLines(limit: Int = 8) -> [String] {
        lostMedia.sorted { $0.key < $1.key }.map { file, why in
            let needed = losses.filter { $0.file == file }
            guard !needed.isEmpty else { return "lost media \(file): \(why)" }
            let stretches = needed.prefix(limit).map { "\(MediaLoss.seconds($0.fromMs))-\(MediaLoss.seconds($0.toMs)) s" }
            let more = needed.count > limit ? " and \(needed.count - limit) more" : ""
            let causes = Set(needed.map(\.cause.rawValue)).sorted().joined(separator: ", ")
            return "lost media \(file): \(why); lost where shown (\(causes)): \(stretches.joined(separator: ", "))\(more)"
        }
    }
}
