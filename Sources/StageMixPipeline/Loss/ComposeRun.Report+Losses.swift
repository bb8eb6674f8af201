extension ComposeRun.Report {
    /// Lines for stderr: one per loss, the first `limit` of them, then how many more `report.json` lists.
    public func lossSummary(limit: Int = 8) -> [String] {
        guard !losses.isEmpty else { return [] }
        var lines = ["\(losses.count) stretch\(losses.count == 1 ? "" : "es") of lost media (report.json \"losses\"):"]
        lines += losses.prefix(limit).map { "  \($0.summary)" }
        if losses.count > limit { lines.append("  ... and \(losses.count - limit) more") }
        return lines
    }
}
