import Foundation

/// The timeline section: a lane per participant and the audience's, on the session's clock, with
/// what edits took out marked across every lane and the video's own time given wherever it differs.
extension ReportPage {
    func timeline(_ page: inout PageWriter, _ lanes: TimelineLanes) {
        let duration = max(1, lanes.durationMs)
        let unit = Double(duration) / Self.width
        page.raw("<section class=\"timeline\" aria-labelledby=\"timeline-title\"><h2 id=\"timeline-title\">Who was on stage</h2>")
        if !lanes.removed.isEmpty {
            page.raw("<svg width=\"0\" height=\"0\" class=\"defs\" aria-hidden=\"true\"><defs><pattern id=\"removed-hatch\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\"><rect width=\"6\" height=\"6\" fill=\"#f4f4f4\"/><path d=\"M0 6 L6 0\" stroke=\"#999\" stroke-width=\"1\"/></pattern></defs></svg>")
        }
        page.raw("<ul class=\"legend\">")
        for kind in PageSpan.Kind.allCases {
            page.raw("<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect class=\"k-\(kind.rawValue)\" width=\"18\" height=\"12\"/></svg>\(ReportPageStyle.legend[kind.rawValue] ?? kind.rawValue)</li>")
        }
        if !lanes.removed.isEmpty {
            page.raw("<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect class=\"removed\" width=\"18\" height=\"12\"/></svg>taken out by edits (trimmed or cut): not in the video</li>")
        }
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><circle class=\"m-pin\" cx=\"6\" cy=\"6\" r=\"5\"/></svg>pinned</li>")
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><path class=\"m-requested\" d=\"M6 1 L11 11 L1 11 Z\"/></svg>invitation (white asked, green accepted, vermilion declined, grey expired)</li>")
        page.raw("<li><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect class=\"m-joined\" x=\"2\" width=\"3\" height=\"6\"/><rect class=\"m-left\" x=\"7\" y=\"6\" width=\"3\" height=\"6\"/></svg>viewers joined, left</li></ul>")
        clocks(&page, lanes)
        let clock = document.timeline.output?.pieces.map { "[\($0.sessionFromMs),\($0.sessionToMs),\($0.outputFromMs)]" }.joined(separator: ",") ?? ""
        page.raw("<div class=\"lanes\" id=\"lanes\" data-duration-ms=\"\(duration)\" data-clock=\"[\(clock)]\"><div class=\"playhead\" id=\"playhead\" hidden></div>")
        let byLane = Dictionary(grouping: Self.merged(lanes.spans, unitMs: unit), by: \.participantId)
        let markersByLane = Dictionary(grouping: lanes.markers.filter { $0.participantId != nil }, by: { $0.participantId ?? "" })
        for lane in lanes.lanes {
            let name = HTMLText.escape(lane.name)
            page.raw("<div class=\"lane\"><div class=\"name\" title=\"\(HTMLText.escape(lane.participantId))\">\(name)</div>")
            page.raw("<svg class=\"track\" viewBox=\"0 0 \(Int(Self.width)) 24\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"\(name)\">")
            for removal in lanes.removed { removed(&page, removal, unit: unit) }
            for span in byLane[lane.participantId] ?? [] { rect(&page, span, unit: unit) }
            for marker in markersByLane[lane.participantId] ?? [] { mark(&page, marker, unit: unit) }
            page.raw("</svg></div>")
        }
        let audience = lanes.markers.filter { $0.participantId == nil }
        page.raw("<div class=\"lane audience\"><div class=\"name\">Audience</div>")
        page.raw("<svg class=\"track\" viewBox=\"0 0 \(Int(Self.width)) 24\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"Audience: joins, leaves and stage invitations\">")
        for removal in lanes.removed { removed(&page, removal, unit: unit) }
        for marker in audience { mark(&page, marker, unit: unit) }
        page.raw("</svg></div>")
        page.raw("<div class=\"axis\" aria-hidden=\"true\"><div class=\"name\">session time</div><div class=\"ticks\">")
        for index in 0...4 { page.raw("<span style=\"left:\(index * 25)%\">\(Self.clock(duration * index / 4))</span>") }
        page.raw("</div></div>")
        if !lanes.removed.isEmpty {
            page.raw("<div class=\"axis\" aria-hidden=\"true\"><div class=\"name\"></div><div class=\"removals\">")
            for removal in lanes.removed {
                let middle = Double(removal.fromMs + removal.toMs) / 2 * 100 / Double(duration)
                page.raw("<span style=\"left:\(Self.number(middle))%\">\(removal.kind.rawValue)</span>")
            }
            page.raw("</div></div>")
        }
        page.raw("</div></section>")
    }

    /// What clicking does, and which clock the times are on.
    private func clocks(_ page: inout PageWriter, _ lanes: TimelineLanes) {
        let playable = run?.mp4 == true
        let action = playable ? "Click or press Enter on any span or mark to play the video from there" : "Hover or focus any span or mark for its words and times"
        page.raw("<p class=\"hint\">\(action); Tab moves between them. Times on the timeline are the session's (0:00 when it started).")
        if !lanes.removed.isEmpty {
            let stretches = lanes.removed.map { "\(Self.clock($0.fromMs)) to \(Self.clock($0.toMs)) (\($0.kind.rawValue))" }
            let shown = stretches.count <= 5 ? stretches.joined(separator: ", ") : "\(stretches.count) stretches"
            page.raw(" Edits took out \(shown), hatched on every lane: the video, \(Self.clock(document.timeline.durationMs)) long, leaves them out, so its times (and the thumbnails') are earlier by what was taken out before; each span and mark gives both.")
        }
        page.raw("</p>")
    }

    /// A stretch edits took out, across the lane, under everything else.
    private func removed(_ page: inout PageWriter, _ removal: TimelineLanes.Removal, unit: Double) {
        let x = Double(removal.fromMs) / unit, width = max(0.6, Double(removal.toMs - removal.fromMs) / unit)
        let what = removal.kind == .trimmed ? "Trimmed" : "Cut"
        let label = HTMLText.escape("\(what) by edits, \(Self.clock(removal.fromMs)) to \(Self.clock(removal.toMs)): not in the video, which goes on at \(Self.clock(removal.resumesAtMs))")
        page.raw("<rect class=\"removed\" x=\"\(Self.number(x))\" y=\"0\" width=\"\(Self.number(width))\" height=\"24\" data-removed=\"\(removal.kind.rawValue)\" data-from-ms=\"\(removal.fromMs)\" data-to-ms=\"\(removal.toMs)\"")
        page.raw(" data-out-ms=\"\(removal.resumesAtMs)\" tabindex=\"0\" role=\"button\" aria-label=\"\(label)\"><title>\(label)</title></rect>")
    }

    private func rect(_ page: inout PageWriter, _ span: PageSpan, unit: Double) {
        let x = Double(span.fromMs) / unit
        let minimum = span.kind == .lost ? 2.0 : 0.6
        let width = max(minimum, Double(span.toMs - span.fromMs) / unit)
        let (y, height) = ReportPageStyle.band[span.kind.rawValue] ?? (4, 16)
        let label = HTMLText.escape("\(span.label), \(Self.clock(span.fromMs)) to \(Self.clock(span.toMs))\(videoTime(span.outputMs, session: span.fromMs, starting: true))")
        page.raw("<rect class=\"k-\(span.kind.rawValue)\" x=\"\(Self.number(x))\" y=\"\(y)\" width=\"\(Self.number(width))\" height=\"\(height)\"")
        page.raw(" data-participant=\"\(HTMLText.escape(span.participantId))\" data-kind=\"\(span.kind.rawValue)\" data-from-ms=\"\(span.fromMs)\"")
        page.raw(" data-to-ms=\"\(span.toMs)\" data-out-ms=\"\(span.outputMs)\" tabindex=\"0\" role=\"button\" aria-label=\"\(label)\"><title>\(label)</title></rect>")
    }

    /// A mark, kept whole inside its lane: one at the session's first or last instant is drawn just inside.
    private func mark(_ page: inout PageWriter, _ marker: TimelineLanes.Marker, unit: Double) {
        let halfWidth = switch marker.kind {
        case .pin: 4.0
        case .joined, .left: 0.0
        default: 5.0
        }
        let x = min(max(Double(marker.atMs) / unit, halfWidth), Self.width - max(halfWidth, 1))
        let label = HTMLText.escape("\(marker.label) at \(Self.clock(marker.atMs))\(videoTime(marker.outputMs, session: marker.atMs, starting: false))")
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

    /// The video's time of a session instant, in words, when edits made it differ.
    private func videoTime(_ outputMs: Int, session sessionMs: Int, starting: Bool) -> String {
        guard outputMs != sessionMs else { return "" }
        return starting ? " (from \(Self.clock(outputMs)) in the video)" : " (\(Self.clock(outputMs)) in the video)"
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
}
