import Foundation

/// `stagemix probe`'s table: one row per layer or audio track, then the problems.
public enum ProbeTextReport {
    public static func render(_ report: ProbeReport) -> String {
        let header = ["TRACK", "LAYER", "CODEC", "SIZE", "FPS", "DURATION", "FIRST KEY", "LEVEL", "STATUS"]
        let rows = report.streams.map { s -> [String] in
            let size = s.width.flatMap { w in s.height.map { "\(w)x\($0)" } } ?? "-"
            let level = s.peakDbfs.map { String(format: "peak %.0f dBFS", $0) } ?? "-"
            return [s.trackId, s.quality ?? "audio", s.codec ?? "-",
                    s.quality == nil ? (s.sampleRate.map { "\($0) Hz \(s.channels ?? 0)ch" } ?? "-") : size,
                    s.frameRate.map { String(format: "%.2f", $0) } ?? "-",
                    s.durationSeconds.map { String(format: "%.2f s", $0) } ?? "-",
                    s.firstKeyframeMs.map { String(format: "%.3f s", Double($0) / 1000) } ?? "-",
                    level, status(s)]
        }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var out = "capture \(report.sessionId), \(String(format: "%.1f", Double(report.durationMs) / 1000)) s, \(report.streams.count) media files\n\n"
        out += ([header] + rows).map(line).joined(separator: "\n") + "\n\n"
        let problems = report.problems
        let headersOnly = report.streams.contains { $0.headersOnly == true }
        out += problems.isEmpty ? (headersOnly ? "all media opens and decodes\n" : "all media opens and decodes; no silent microphone\n")
            : "\(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
                + problems.map { "  \($0.file): \(status($0))\(detail($0).map { " (\($0))" } ?? "")\n" }.joined()
        if headersOnly {
            out += "media in object storage: only headers and first frames were read (ranged GETs); length, gaps and silence\n"
                + "are checked when the whole file is read (probe a local copy to check them)\n"
        }
        return out
    }

    static func detail(_ s: StreamProbe) -> String? {
        if let error = s.error { return error }
        func sec(_ ms: Int) -> String { String(format: "%.3f s", Double(ms) / 1000) }
        if s.truncated == true, let end = s.endMs, let until = s.publishedUntilMs {
            return "ends at \(sec(end)), published until \(sec(until))"
        }
        if let gaps = s.gaps, !gaps.isEmpty {
            return gaps.prefix(3).map { "nothing \(sec($0.fromMs))-\(sec($0.toMs))" }.joined(separator: ", ")
                + (gaps.count > 3 ? ", ..." : "")
        }
        return nil
    }

    static func status(_ s: StreamProbe) -> String {
        if !s.opens { return "CANNOT OPEN" }
        if !s.decodes { return "CANNOT DECODE" }
        if s.truncated == true { return "ENDS EARLY" }
        if !(s.gaps ?? []).isEmpty { return "GAPS" }
        if s.silent == true { return "SILENT" }
        return s.headersOnly == true ? "ok (headers)" : "ok"
    }
}
