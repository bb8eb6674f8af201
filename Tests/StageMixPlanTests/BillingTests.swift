import Foundation
import Testing
import StageMixTestSupport
import StageMixLayout
@testable import StageMixPlan

@Suite("Billing")
struct BillingTests {
    /// Maya alone 0-30 s, Omar joins at 30 s, Omar's camera muted from 70 s, end at 130 s; side-by-side cover tiles.
    func scenario() -> CompositionPlan {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 30_000)
        c.at(70_000, .trackMuted(trackId: "omar-cam"))
        let capture = c.capture(endingAt: 130_000)
        return CompositionPlan(capture: capture, timeline: try! StageTimeline(capture: capture),
                               layout: halvesLayout(fit: .cover))
    }

    @Test func totalsWorkedOutByHand() throws {
        let report = try BillingReport(plan: scenario())
        // 0-30: one 1280x720 layer; 30-70: two; 70-130: Omar's is muted and carries nothing.
        #expect(report.spans.map(\.aggregatePixels) == [921_600, 1_843_200, 921_600])
        #expect(report.spans.map(\.tier) == ["HD", "Full HD", "HD"])
        // Minute 0 and 1 reach Full HD; minute 2 (120-130 s) only HD.
        #expect(report.minutes.map(\.tier) == ["Full HD", "Full HD", "HD"])
        let perTier = Dictionary(uniqueKeysWithValues: report.minutesPerTier.map { ($0.tier, $0.minutes) })
        #expect(perTier == ["audio": 0, "HD": 1, "Full HD": 2, "2K": 0, "2K+": 0])
        #expect(report.outputTier == "HD")
        #expect(report.peakPixels == 1_843_200)

        let usage = Dictionary(uniqueKeysWithValues: report.tracks.map { ($0.trackId, $0) })
        #expect(usage["maya-cam"]?.subscribedSeconds == 130)
        #expect(usage["maya-cam"]?.pixelSeconds == Double(921_600 * 130))
        #expect(usage["omar-cam"]?.subscribedSeconds == 100)
        #expect(usage["omar-cam"]?.pixelSeconds == Double(921_600 * 40))
        #expect(usage["omar-mic"]?.subscribedSeconds == 100)
        #expect(usage["omar-mic"]?.pixelSeconds == 0)
    }

    @Test func priceTableGivesACost() throws {
        let prices = PriceTable(currency: "USD", perMinute: ["HD": 0.99, "Full HD": 2.0])
        let report = try BillingReport(plan: scenario(), prices: prices)
        #expect(abs((report.cost ?? 0) - 4.99) < 1e-9)
        #expect(report.currency == "USD")
    }

    @Test func audioOnlyMinutes() throws {
        var c = TestCapture(); c.person("maya")
        c.at(0, .participantJoined(participantId: "maya", mode: .sendAndReceive, role: nil))
        c.at(0, .pinned(participantId: "maya"))
        c.at(0, .trackPublished(trackId: "maya-mic"))
        let capture = c.capture(endingAt: 90_000)
        let plan = CompositionPlan(capture: capture, timeline: try! StageTimeline(capture: capture),
                                   layout: halvesLayout(fit: .cover))
        let report = try BillingReport(plan: plan)
        #expect(report.minutes.map(\.tier) == ["audio", "audio"])
    }

    @Test func aboveTheTopTierIsAnErrorUnlessNamed() throws {
        let small = try BillingTiers(tiers: [.init(name: "audio", maxPixels: 0), .init(name: "SD", maxPixels: 1_000_000)])
        #expect(throws: BillingError.self) { try BillingReport(plan: scenario(), tiers: small) }
        let named = try BillingTiers(tiers: small.tiers, overflowTier: "huge")
        #expect(try BillingReport(plan: scenario(), tiers: named).minutes.map(\.tier) == ["huge", "huge", "SD"])
    }

    @Test func tiersMustAscend() {
        #expect(throws: BillingError.self) {
            try BillingTiers(tiers: [.init(name: "a", maxPixels: 10), .init(name: "b", maxPixels: 10)])
        }
        #expect(throws: BillingError.self) { try BillingTiers(tiers: []) }
    }

    @Test func tierTablesLoadFromJSONAndAreChecked() throws {
        let scratch = ScratchDirectory("tiers")
        defer { scratch.remove() }
        let dir = scratch.file("tiers")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let good = dir.appendingPathComponent("good.json"), bad = dir.appendingPathComponent("bad.json")
        try Data(#"{"tiers": [{"name": "audio", "maxPixels": 0}, {"name": "SD", "maxPixels": 1000000}], "overflowTier": "big"}"#.utf8).write(to: good)
        try Data(#"{"tiers": [{"name": "a", "maxPixels": 5}, {"name": "b", "maxPixels": 1}]}"#.utf8).write(to: bad)
        let tiers = try BillingTiers.load(contentsOf: good)
        #expect(tiers.names == ["audio", "SD", "big"])
        #expect(try BillingReport(plan: scenario(), tiers: tiers).minutes.map(\.tier) == ["big", "big", "SD"])
        #expect(throws: BillingError.self) { try BillingTiers.load(contentsOf: bad) }
    }

    @Test func agoraTierBoundaries() throws {
        let t = BillingTiers.agora
        #expect(try t.tier(for: 0) == "audio")
        #expect(try t.tier(for: 921_600) == "HD")
        #expect(try t.tier(for: 921_601) == "Full HD")
        #expect(try t.tier(for: 2_073_600) == "Full HD")
        #expect(try t.tier(for: 3_686_400) == "2K")
        #expect(try t.tier(for: 8_847_360) == "2K+")
        #expect(throws: BillingError.self) { try t.tier(for: 8_847_361) }
    }
}
