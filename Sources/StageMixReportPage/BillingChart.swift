import Foundation
import StageMixPlan

/// The page's "What it cost" section: the aggregate resolution over the output's time as a step chart
/// over the tier of each moment, a strip of the started minutes in the tier each is billed at (its
/// peak's), both on one time axis, a legend of the tiers, the billing rule as `billing.json` states
/// it, and the minutes per tier as a table. Every element that shows a tier says which tier it is:
/// `data-tier-of="moment"` for a stretch's own, `"minute"` for a minute's billed one.
struct BillingChart {
    let billing: BillingReport

    func write(_ page: inout PageWriter) {
        page.raw("<section class=\"billing\" aria-labelledby=\"billing-title\"><h2 id=\"billing-title\">What it cost</h2>")
        page.raw("<p class=\"rule\" id=\"billing-rule\">How the minutes are counted: \(HTMLText.escape(rule)).</p><figure>")
        legend(&page)
        page.raw("<div class=\"chartbox\"><div class=\"yaxis\" aria-hidden=\"true\"><span style=\"top:15%\">\(Self.grouped(billing.peakPixels)) px</span><span style=\"top:118px\">0 px</span><span style=\"top:151px\">minutes billed</span></div><div class=\"plots\">")
        moments(&page)
        minutes(&page)
        page.raw("<div class=\"axis\" aria-hidden=\"true\"><div class=\"ticks\">")
        for index in 0...4 { page.raw("<span style=\"left:\(index * 25)%\">\(ReportPage.clock(duration * index / 4))</span>") }
        page.raw("</div></div><div class=\"axis-name\">time in the video (output time)</div></div></div>")
        page.raw("<figcaption id=\"billing-caption\">Above: the aggregate resolution at each moment (the line: the sum of the pixels of the video layers read at once, peaking at \(Self.grouped(billing.peakPixels)) px) over the tier of that moment (the background). ")
        page.raw("Below: each started minute, in the tier it is billed at, the tier of its peak; a moment in a lower tier is billed at its minute's tier.</figcaption></figure>")
        table(&page)
        page.raw("</section>")
    }

    /// The rule `billing.json` states; a report read back from before it had the field followed the same rule.
    private var rule: String { billing.rule ?? BillingReport.startedMinuteRule }
    private var duration: Int { max(1, billing.durationMs) }
    private var tierNames: [String] { billing.minutesPerTier.map(\.tier) }

    private func x(_ ms: Int) -> Double { Double(ms) * 1000 / Double(duration) }

    private func legend(_ page: inout PageWriter) {
        page.raw("<ul class=\"legend tiers\" aria-label=\"Tiers\">")
        for tier in billing.minutesPerTier {
            let name = HTMLText.escape(tier.tier)
            page.raw("<li data-tier=\"\(name)\"><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><rect class=\"tier-\(ReportPageStyle.tierClass(tier.tier, in: tierNames))\" width=\"18\" height=\"12\"/></svg>\(name)</li>")
        }
        page.raw("<li><svg width=\"18\" height=\"12\" aria-hidden=\"true\"><path class=\"step\" d=\"M0 9 L9 9 L9 3 L18 3\"/></svg>aggregate resolution</li></ul>")
    }

    /// The step chart over each moment's tier.
    private func moments(_ page: inout PageWriter) {
        let peak = max(1, billing.peakPixels)
        page.raw("<svg class=\"chart\" viewBox=\"0 0 1000 120\" preserveAspectRatio=\"none\" role=\"img\" aria-labelledby=\"billing-caption\">")
        var path = ""
        for span in billing.spans {
            let x0 = x(span.startMs), x1 = x(span.endMs)
            let y = 118 - Double(span.aggregatePixels) * 100 / Double(peak)
            let tier = HTMLText.escape(span.tier)
            let billed = minuteTiers(from: span.startMs, to: span.endMs)
            let title = HTMLText.escape("This moment's tier: \(span.tier), \(Self.grouped(span.aggregatePixels)) px, \(ReportPage.clock(span.startMs)) to \(ReportPage.clock(span.endMs)); \(billed)")
            page.raw("<rect class=\"tier tier-\(ReportPageStyle.tierClass(span.tier, in: tierNames))\" x=\"\(ReportPage.number(x0))\" y=\"0\" width=\"\(ReportPage.number(max(0.5, x1 - x0)))\" height=\"120\" data-tier-of=\"moment\" data-tier=\"\(tier)\" data-pixels=\"\(span.aggregatePixels)\" data-from-ms=\"\(span.startMs)\" data-to-ms=\"\(span.endMs)\"><title>\(title)</title></rect>")
            path += path.isEmpty ? "M\(ReportPage.number(x0)) \(ReportPage.number(y))" : " L\(ReportPage.number(x0)) \(ReportPage.number(y))"
            path += " L\(ReportPage.number(x1)) \(ReportPage.number(y))"
        }
        page.raw("<path class=\"step\" d=\"\(path)\"/></svg>")
    }

    /// One mark per started minute, in the tier it is billed at; the last runs to the output's end
    /// and is billed whole.
    private func minutes(_ page: inout PageWriter) {
        page.raw("<svg class=\"minutes\" viewBox=\"0 0 1000 20\" preserveAspectRatio=\"none\" role=\"group\" aria-label=\"Each started minute and the tier it is billed at\">")
        for minute in billing.minutes {
            let from = minute.index * 60_000, to = min(duration, from + 60_000)
            let whole = to - from < 60_000 ? ", billed as a whole minute" : ""
            let title = HTMLText.escape("Minute \(minute.index + 1) (\(ReportPage.clock(from)) to \(ReportPage.clock(to))\(whole)): billed as \(minute.tier), the tier of its peak, \(Self.grouped(minute.peakPixels)) px")
            page.raw("<rect class=\"minute tier-\(ReportPageStyle.tierClass(minute.tier, in: tierNames))\" x=\"\(ReportPage.number(x(from)))\" y=\"0\" width=\"\(ReportPage.number(max(0.5, x(to) - x(from))))\" height=\"20\" data-tier-of=\"minute\" data-minute=\"\(minute.index)\" data-billed-tier=\"\(HTMLText.escape(minute.tier))\" data-peak-pixels=\"\(minute.peakPixels)\" tabindex=\"0\" aria-label=\"\(title)\"><title>\(title)</title></rect>")
        }
        page.raw("</svg>")
    }

    /// What the minutes a stretch falls in are billed at, in words.
    private func minuteTiers(from: Int, to: Int) -> String {
        let first = from / 60_000, last = max(first, (to - 1) / 60_000)
        let billed = billing.minutes.filter { (first...last).contains($0.index) }
        guard let one = billed.first else { return "in no billed minute" }
        if billed.count == 1 { return "it falls in minute \(one.index + 1), billed as \(one.tier)" }
        var tiers: [String] = []
        for minute in billed where !tiers.contains(minute.tier) { tiers.append(minute.tier) }
        return "it falls in minutes \(first + 1) to \(last + 1), billed as \(tiers.joined(separator: " or "))"
    }

    private func table(_ page: inout PageWriter) {
        page.raw("<table class=\"tiers\"><caption>Minutes per tier: each started minute counted once, in the tier of its peak (output \(billing.outputWidth)x\(billing.outputHeight), itself \(HTMLText.escape(billing.outputTier)))</caption><thead><tr><th scope=\"col\">Tier</th><th scope=\"col\">Minutes</th></tr></thead><tbody>")
        for tier in billing.minutesPerTier {
            page.raw("<tr data-tier=\"\(HTMLText.escape(tier.tier))\"><th scope=\"row\">\(HTMLText.escape(tier.tier))</th><td>\(tier.minutes)</td></tr>")
        }
        page.raw("</tbody><tfoot><tr><th scope=\"row\">Total</th><td>\(billing.minutesPerTier.reduce(0) { $0 + $1.minutes })</td></tr>")
        if let cost = billing.cost, let currency = billing.currency {
            page.raw("<tr class=\"cost\"><th scope=\"row\">Cost</th><td>\(String(format: "%.2f", cost)) \(HTMLText.escape(currency))</td></tr>")
        }
        page.raw("</tfoot></table>")
    }

    /// `2188800` as `2,188,800`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
