import Foundation
import Testing
@testable import StageMixCapture
@testable import StageMixPlan
import StageMixLayout
@testable import StageMixReportPage
import StageMixTestSupport

/// The billing section tells billing.json's story: the chart shows each moment's tier and, below it,
/// each started minute in the tier it is billed at, on a time axis with a legend of the tiers, and the
/// rule is stated in billing.json's words.
@Suite("report.html billing")
struct ReportPageBillingTests {
    /// `Samples/screenshare` under `speaker`: Full HD at 0-5 s and 15-20 s, 2K while Maya's screen share
    /// shows; its one started minute is billed 2K.
    func screenshare() throws -> PlanDocument {
        let capture = try CaptureFolder(Repository.root.appendingPathComponent("Samples/screenshare")).capture()
        return try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "speaker")))
    }

    @Test func theChartShowsEachMomentsTierAndEachMinutesBilledTier() throws {
        let document = try screenshare()
        let billing = document.billing
        #expect(billing.spans.map(\.tier) == ["Full HD", "2K", "Full HD"] && billing.minutes.map(\.tier) == ["2K"])
        let html = ReportPage(document: document).html()

        // Every stretch of the chart says it is its moment's tier, and which minute's tier it is billed at.
        let moments = html.matches(of: #/<rect class="tier tier-\d" [^>]* data-tier-of="moment" data-tier="([^"]+)"[^>]*><title>([^<]*)</title>/#)
        #expect(moments.map { String($0.1) } == ["Full HD", "2K", "Full HD"])
        #expect(moments.first.map { $0.2.hasPrefix("This moment&#39;s tier: Full HD") && $0.2.contains("billed as 2K") } == true)
        // One mark per started minute, in billing.json's tier.
        let minutes = html.matches(of: #/data-tier-of="minute" data-minute="(\d+)" data-billed-tier="([^"]+)" data-peak-pixels="(\d+)"/#)
        #expect(minutes.map { "\($0.1) \($0.2) \($0.3)" } == billing.minutes.map { "\($0.index) \($0.tier) \($0.peakPixels)" })
        // A legend of every tier, an axis of the output's time and of pixels.
        let legend = html.matches(of: #/<li data-tier="([^"]+)"><svg/#).map { String($0.1) }
        #expect(legend == billing.minutesPerTier.map(\.tier))
        #expect(html.contains("time in the video (output time)") && html.contains("<span style=\"left:100%\">0:20.0</span>"))
        #expect(html.contains("2,188,800 px</span>") && html.contains("0 px</span>"))
        // The old wording said the background was the tier each stretch is billed in: it is not.
        #expect(!html.contains("the tier each stretch is billed in"))
    }

    @Test func theRuleIsBillingJSONsAndTheTableCountsItsMinutes() throws {
        let document = try screenshare()
        let json = try #require(try JSONSerialization.jsonObject(with: PlanDocument.encode(document.billing)) as? [String: Any])
        let rule = try #require(json["rule"] as? String)
        #expect(rule.contains("each started minute") && rule.contains("peak"))
        let html = ReportPage(document: document).html()
        #expect(html.contains("How the minutes are counted: \(HTMLText.escape(rule)).</p>"))
        // The table: 2K 1, the others 0, total the number of started minutes.
        let rows = html.matches(of: #/<tr data-tier="([^"]*)"><th scope="row">[^<]*</th><td>(\d+)</td></tr>/#).map { "\($0.1)=\($0.2)" }
        #expect(rows == ["audio=0", "HD=0", "Full HD=0", "2K=1", "2K+=0"])
        #expect(html.contains("<th scope=\"row\">Total</th><td>\(document.billing.minutes.count)</td>"))
        #expect(html.contains("each started minute counted once, in the tier of its peak"))
    }

    /// README's billing paragraph states the rule billing.json states.
    @Test func theReadmeStatesTheSameRule() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Billing, in one paragraph"))
        let paragraph = readme[start.upperBound...].prefix(2_000).replacingOccurrences(of: "\n", with: " ")
        #expect(paragraph.contains("each started minute of the output is billed once, in the tier of its peak"))
        #expect(!paragraph.contains("the minutes spent in each tier added up"))
    }
}
