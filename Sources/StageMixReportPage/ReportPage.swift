public import Foundation
public import StageMixPlan
public import StageMixCapture

/// `report.html`: one self-contained page (inline CSS, script and SVG; images are files of the output)
/// that answers who was on stage, when and why, what was lost, and what it cost, with the video at any
/// moment one click away. Every span of the timeline is an SVG element carrying `data-participant`,
/// `data-kind`, `data-from-ms` and `data-to-ms` (session milliseconds), so tests and users can read the
/// drawing back. Text from users is escaped, never interpreted. `plan --html` writes it without a run
/// (no player, no thumbnails).
public struct ReportPage: Sendable {
    public let document: PlanDocument
    public let run: ComposedRun?
    /// For the audience lane's joins and leaves.
    public let capture: Capture?
    /// Units across a lane: a span narrower than one is merged with its neighbours of the same kind
    /// (a lost-media mark never is, and is drawn at least this wide).
    static let width = 1000.0

    /// What the page may load: its own inline style and script, its images and video from where it lies
    /// (a folder or the server that serves it), and nothing from anywhere else. In the page, and sent
    /// as a header by `stagemix serve`.
    public static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self' data: file:; media-src 'self' data: file:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"

    public init(document: PlanDocument, run: ComposedRun? = nil, capture: Capture? = nil) {
        self.document = document
        self.run = run
        self.capture = capture
    }

    public func html() -> String {
        let lanes = TimelineLanes(document: document, losses: run?.losses ?? [], capture: capture)
        var page = PageWriter()
        let session = HTMLText.escape(document.timeline.sessionId)
        page.raw("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.contentSecurityPolicy)\">")
        page.raw("<title>StageMix: \(session)</title><style>\(ReportPageStyle.css)</style></head><body>")
        header(&page)
        player(&page)
        timeline(&page, lanes)
        thumbnails(&page)
        BillingChart(billing: document.billing).write(&page)
        cpu(&page)
        page.raw("<footer>Made by StageMix from timeline.json, billing.json, plan.json\(run == nil ? "" : " and report.json").</footer>")
        page.raw("<script>\(ReportPageStyle.script)</script></body></html>\n")
        return page.text
    }

    // MARK: Header

    private func header(_ page: inout PageWriter) {
        let plan = document.plan
        page.raw("<header><h1>Session <span class=\"id\">\(HTMLText.escape(plan.sessionId))</span></h1><dl class=\"facts\">")
        func fact(_ term: String, _ value: String) { page.raw("<div><dt>\(term)</dt><dd>\(HTMLText.escape(value))</dd></div>") }
        if let clock = document.timeline.output {
            fact("Duration", "\(Self.clock(plan.durationMs)) (session \(Self.clock(clock.sessionDurationMs)), edits took out \(Self.clock(clock.sessionDurationMs - plan.durationMs)))")
        } else {
            fact("Duration", Self.clock(plan.durationMs))
        }
        fact("Layout", plan.layoutName)
        fact("Canvas", "\(plan.canvas.width)x\(plan.canvas.height) at \(plan.fps) fps")
        if let run {
            if !run.renditions.isEmpty { fact("Renditions", run.renditions.joined(separator: ", ")) }
            let formatter = ISO8601DateFormatter()
            fact("Composed", formatter.string(from: run.composedAt))
            let speed = run.composeSeconds > 0 ? Double(plan.durationMs) / 1000 / run.composeSeconds : 0
            fact("Took", String(format: "%.1f s (%.1fx real time)", run.composeSeconds, speed))
        } else {
            fact("Composed", "not yet: this is the plan")
        }
        page.raw("</dl>")
        let warnings = (run?.warnings ?? document.warnings)
        if !warnings.isEmpty || !(run?.losses.isEmpty ?? true) {
            page.raw("<section class=\"warnings\" aria-label=\"Warnings\"><h2>Warnings</h2><ul>")
            for warning in warnings { page.raw("<li>\(HTMLText.escape(warning))</li>") }
            if let losses = run?.losses, !losses.isEmpty {
                page.raw("<li class=\"lost\">\(losses.count) stretch\(losses.count == 1 ? "" : "es") of lost media, marked on the timeline</li>")
            }
            page.raw("</ul></section>")
        }
        page.raw("</header>")
    }

    // MARK: Player

    private func player(_ page: inout PageWriter) {
        guard let run else { return }
        page.raw("<section class=\"player\" aria-label=\"Player\">")
        if run.mp4 {
            let events = StageEvent.of(document.timeline)
            let chapters = events.enumerated().map { index, event -> String in
                let end = index + 1 < events.count ? events[index + 1].atMs : document.plan.durationMs
                return "\(Self.vttTime(event.atMs)) --> \(Self.vttTime(max(end, event.atMs + 1)))\n\(event.title)\n"
            }
            let vtt = "WEBVTT\n\n" + chapters.joined(separator: "\n")
            page.raw("<video id=\"video\" controls preload=\"metadata\" src=\"composition.mp4\"\(run.thumbnails.isEmpty ? "" : " poster=\"poster.jpg\"")>")
            page.raw("<track kind=\"chapters\" default label=\"Stage events\" src=\"data:text/vtt;base64,\(Data(vtt.utf8).base64EncodedString())\"></video>")
        } else if !run.thumbnails.isEmpty {
            page.raw("<img class=\"poster\" src=\"poster.jpg\" alt=\"The composition's poster frame\"><p>No MP4 was asked for (compose with --mp4 to play it here); the HLS playlist is hls/index.m3u8.</p>")
        } else {
            page.raw("<p>No MP4 was asked for: compose with --mp4 to play the composition here. The HLS playlist is hls/index.m3u8.</p>")
        }
        page.raw("</section>")
    }

    // MARK: Thumbnails, CPU

    private func thumbnails(_ page: inout PageWriter) {
        guard let run, !run.thumbnails.isEmpty else { return }
        page.raw("<section class=\"thumbs\" aria-label=\"Thumbnails\"><h2>Thumbnails</h2>")
        if document.timeline.output != nil { page.raw("<p class=\"hint\">Their times are the video's, after the edits took time out.</p>") }
        page.raw("<div class=\"strip\">")
        for thumbnail in run.thumbnails {
            page.raw("<button type=\"button\" data-out-ms=\"\(thumbnail.ms)\"><img loading=\"lazy\" src=\"\(HTMLText.escape(thumbnail.file))\" alt=\"The video at \(Self.clock(thumbnail.ms))\"><span>\(Self.clock(thumbnail.ms))</span></button>")
        }
        page.raw("</div></section>")
    }

    private func cpu(_ page: inout PageWriter) {
        guard let run, !run.cpuSeconds.isEmpty else { return }
        let total = max(0.001, run.cpuSeconds.map(\.seconds).max() ?? 1)
        page.raw("<section class=\"cpu\" aria-labelledby=\"cpu-title\"><h2 id=\"cpu-title\">Where the CPU went</h2><table><tbody>")
        for (part, seconds) in run.cpuSeconds {
            page.raw("<tr><th scope=\"row\">\(HTMLText.escape(part))</th><td>\(String(format: "%.2f", seconds)) s</td><td class=\"bar\"><span style=\"width:\(Self.number(seconds * 100 / total))%\"></span></td></tr>")
        }
        page.raw("</tbody></table></section>")
    }

    // MARK: Numbers

    static func clock(_ ms: Int) -> String {
        let seconds = ms / 1000
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d.%d", m, s, ms % 1000 / 100)
    }

    static func vttTime(_ ms: Int) -> String {
        String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    static func number(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
