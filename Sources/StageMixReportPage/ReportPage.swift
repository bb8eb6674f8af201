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
        billing(&page)
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
        fact("Duration", Self.clock(plan.durationMs))
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

    // MARK: Timeline

    private func timeline(_ page: inout PageWriter, _ lanes: TimelineLanes) {
        let duration = max(1, lanes.durationMs)
        let unit = Double(duration) / Self.width
        page.raw("<section class=\"timeline\" aria-labelledby=\"timeline-title\"><h2 id=\"timeline-title\">Who was on stage</h2>")
        page.raw("<ul class=\"legend\">")
        for kind in PageSpan.Kind.allCases {
            page.raw("<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect class=\"k-\(kind.rawValue)\" width=\"18\" height=\"12\"/></svg>\(ReportPageStyle.legend[kind.rawValue] ?? kind.rawValue)</li>")
        }
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><circle class=\"m-pin\" cx=\"6\" cy=\"6\" r=\"5\"/></svg>pinned</li>")
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><path class=\"m-requested\" d=\"M6 1 L11 11 L1 11 Z\"/></svg>invitation (white asked, green accepted, vermilion declined, grey expired)</li>")
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect class=\"m-joined\" x=\"2\" width=\"3\" height=\"6\"/><rect class=\"m-left\" x=\"7\" y=\"6\" width=\"3\" height=\"6\"/></svg>viewers joined, left</li></ul>")
        page.raw("<p class=\"hint\">Click or press Enter on any span or mark to play the video from there; Tab moves between them.</p>")
        let clock = document.timeline.output?.pieces.map { "[\($0.sessionFromMs),\($0.sessionToMs),\($0.outputFromMs)]" }.joined(separator: ",") ?? ""
        page.raw("<div class=\"lanes\" id=\"lanes\" data-duration-ms=\"\(duration)\" data-clock=\"[\(clock)]\"><div class=\"playhead\" id=\"playhead\" hidden></div>")
        let byLane = Dictionary(grouping: Self.merged(lanes.spans, unitMs: unit), by: \.participantId)
        let markersByLane = Dictionary(grouping: lanes.markers.filter { $0.participantId != nil }, by: { $0.participantId ?? "" })
        for lane in lanes.lanes {
            let name = HTMLText.escape(lane.name)
            page.raw("<div class=\"lane\"><div class=\"name\" title=\"\(HTMLText.escape(lane.participantId))\">\(name)</div>")
            page.raw("<svg class=\"track\" viewBox=\"0 0 \(Int(Self.width)) 24\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"\(name)\">")
            for span in byLane[lane.participantId] ?? [] { rect(&page, span, unit: unit) }
            for marker in markersByLane[lane.participantId] ?? [] { mark(&page, marker, unit: unit) }
            page.raw("</svg></div>")
        }
        let audience = lanes.markers.filter { $0.participantId == nil }
        page.raw("<div class=\"lane audience\"><div class=\"name\">Audience</div>")
        page.raw("<svg class=\"track\" viewBox=\"0 0 \(Int(Self.width)) 24\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"Audience: joins, leaves and stage invitations\">")
        for marker in audience { mark(&page, marker, unit: unit) }
        page.raw("</svg></div>")
        page.raw("<div class=\"axis\" aria-hidden=\"true\"><div class=\"name\"></div><div class=\"ticks\">")
        for index in 0...4 { page.raw("<span style=\"left:\(index * 25)%\">\(Self.clock(duration * index / 4))</span>") }
        page.raw("</div></div></div></section>")
    }

    private func rect(_ page: inout PageWriter, _ span: PageSpan, unit: Double) {
        let x = Double(span.fromMs) / unit
        let minimum = span.kind == .lost ? 2.0 : 0.6
        let width = max(minimum, Double(span.toMs - span.fromMs) / unit)
        let (y, height) = ReportPageStyle.band[span.kind.rawValue] ?? (4, 16)
        let label = HTMLText.escape("\(span.label), \(Self.clock(span.fromMs)) to \(Self.clock(span.toMs))")
        page.raw("<rect class=\"k-\(span.kind.rawValue)\" x=\"\(Self.number(x))\" y=\"\(y)\" width=\"\(Self.number(width))\" height=\"\(height)\"")
        page.raw(" data-participant=\"\(HTMLText.escape(span.participantId))\" data-kind=\"\(span.kind.rawValue)\" data-from-ms=\"\(span.fromMs)\"")
        page.raw(" data-to-ms=\"\(span.toMs)\" data-out-ms=\"\(span.outputMs)\" tabindex=\"0\" role=\"button\" aria-label=\"\(label)\"><title>\(label)</title></rect>")
    }

    private func mark(_ page: inout PageWriter, _ marker: TimelineLanes.Marker, unit: Double) {
        let x = Double(marker.atMs) / unit
        let label = HTMLText.escape("\(marker.label) at \(Self.clock(marker.atMs))")
        let shape = switch marker.kind {
        case .pin: "<circle cx=\"\(Self.number(x))\" cy=\"12\" r=\"4\""
        case .joined: "<rect x=\"\(Self.number(x))\" y=\"1\" width=\"1\" height=\"9\""
        case .left: "<rect x=\"\(Self.number(x))\" y=\"14\" width=\"1\" height=\"9\""
        default: "<path d=\"M\(Self.number(x)) 3 L\(Self.number(x + 5)) 21 L\(Self.number(x - 5)) 21 Z\""
        }
        let close = switch marker.kind {
        case .pin: "</circle>"
        case .joined, .left: "</rect>"
        default: "</path>"
        }
        page.raw("\(shape) class=\"m-\(marker.kind.rawValue)\" data-marker=\"\(marker.kind.rawValue)\" data-at-ms=\"\(marker.atMs)\" data-out-ms=\"\(marker.outputMs)\"")
        page.raw(" tabindex=\"0\" role=\"button\" aria-label=\"\(label)\"><title>\(label)</title>\(close)")
    }

    /// Spans of one participant and kind closer than `unitMs` are one drawing; lost media is never merged.
    static func merged(_ spans: [PageSpan], unitMs: Double) -> [PageSpan] {
        var out: [PageSpan] = []
        var latest: [String: Int] = [:]
        for span in spans.sorted(by: { ($0.fromMs, $0.kind.rawValue) < ($1.fromMs, $1.kind.rawValue) }) {
            let key = "\(span.kind.rawValue) \(span.participantId)"
            if span.kind != .lost, let index = latest[key], Double(span.fromMs - out[index].toMs) < unitMs,
               Double(span.toMs - span.fromMs) < unitMs || Double(out[index].toMs - out[index].fromMs) < unitMs {
                out[index].toMs = max(out[index].toMs, span.toMs)
                if !out[index].label.hasSuffix("(merged)") { out[index].label += " (merged)" }
                continue
            }
            latest[key] = out.count
            out.append(span)
        }
        return out
    }

    // MARK: Thumbnails, billing, CPU

    private func thumbnails(_ page: inout PageWriter) {
        guard let run, !run.thumbnails.isEmpty else { return }
        page.raw("<section class=\"thumbs\" aria-label=\"Thumbnails\"><h2>Thumbnails</h2><div class=\"strip\">")
        for thumbnail in run.thumbnails {
            page.raw("<button type=\"button\" data-out-ms=\"\(thumbnail.ms)\"><img loading=\"lazy\" src=\"\(HTMLText.escape(thumbnail.file))\" alt=\"The video at \(Self.clock(thumbnail.ms))\"><span>\(Self.clock(thumbnail.ms))</span></button>")
        }
        page.raw("</div></section>")
    }

    private func billing(_ page: inout PageWriter) {
        let billing = document.billing
        let duration = max(1, billing.durationMs)
        let peak = max(1, billing.peakPixels)
        page.raw("<section class=\"billing\" aria-labelledby=\"billing-title\"><h2 id=\"billing-title\">What it cost</h2><figure>")
        page.raw("<svg class=\"chart\" viewBox=\"0 0 1000 120\" preserveAspectRatio=\"none\" role=\"img\" aria-labelledby=\"billing-caption\">")
        var path = ""
        for span in billing.spans {
            let x0 = Double(span.startMs) * 1000 / Double(duration), x1 = Double(span.endMs) * 1000 / Double(duration)
            let y = 118 - Double(span.aggregatePixels) * 100 / Double(peak)
            let tier = HTMLText.escape(span.tier)
            page.raw("<rect class=\"tier tier-\(ReportPageStyle.tierClass(span.tier))\" x=\"\(Self.number(x0))\" y=\"0\" width=\"\(Self.number(max(0.5, x1 - x0)))\" height=\"120\" data-tier=\"\(tier)\" data-pixels=\"\(span.aggregatePixels)\" data-from-ms=\"\(span.startMs)\" data-to-ms=\"\(span.endMs)\"><title>\(tier): \(span.aggregatePixels) pixels, \(Self.clock(span.startMs)) to \(Self.clock(span.endMs))</title></rect>")
            path += path.isEmpty ? "M\(Self.number(x0)) \(Self.number(y))" : " L\(Self.number(x0)) \(Self.number(y))"
            path += " L\(Self.number(x1)) \(Self.number(y))"
        }
        page.raw("<path class=\"step\" d=\"\(path)\"/></svg>")
        page.raw("<figcaption id=\"billing-caption\">Aggregate resolution over time (the sum of the pixels of the video layers read at once), peaking at \(billing.peakPixels) pixels; the background is the tier each stretch is billed in.</figcaption></figure>")
        page.raw("<table class=\"tiers\"><caption>Minutes per tier (output \(billing.outputWidth)x\(billing.outputHeight), tier \(HTMLText.escape(billing.outputTier)))</caption><thead><tr><th scope=\"col\">Tier</th><th scope=\"col\">Minutes</th></tr></thead><tbody>")
        for tier in billing.minutesPerTier {
            page.raw("<tr data-tier=\"\(HTMLText.escape(tier.tier))\"><th scope=\"row\">\(HTMLText.escape(tier.tier))</th><td>\(tier.minutes)</td></tr>")
        }
        page.raw("</tbody><tfoot><tr><th scope=\"row\">Total</th><td>\(billing.minutesPerTier.reduce(0) { $0 + $1.minutes })</td></tr>")
        if let cost = billing.cost, let currency = billing.currency {
            page.raw("<tr class=\"cost\"><th scope=\"row\">Cost</th><td>\(String(format: "%.2f", cost)) \(HTMLText.escape(currency))</td></tr>")
        }
        page.raw("</tfoot></table></section>")
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
