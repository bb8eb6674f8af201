import StageMixTestSupport
import Foundation
import Testing
@testable import StageMixPlan

/// Tier and price tables are read as strictly as captures: every problem names the file and the
/// JSON path, and a price for a tier that is not in use is an error, not a cost of zero.
@Suite struct BillingTableTests {
    static let goodTiers = #"{"tiers": [{"name": "audio", "maxPixels": 0}, {"name": "SD", "maxPixels": 1000000}], "overflowTier": "big"}"#

    /// Writes `text` to `name` in a fresh directory and passes its URL to `body`.
    static func withFile<T>(_ name: String, _ text: String, _ body: (URL) throws -> T) rethrows -> T {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(text, to: name)
        return try body(scratch.url.appendingPathComponent(name))
    }

    /// The problems' paths for a tier file, after checking each names the file.
    static func tierProblems(_ text: String) -> [String] {
        withFile("tiers.json", text) { url in
            do throws(BillingError) {
                _ = try BillingTiers.load(contentsOf: url)
                return []
            } catch {
                #expect(!error.problems.isEmpty && error.problems.allSatisfy { $0.file == url.path }, "\(error)")
                return error.problems.map(\.path)
            }
        }
    }

    static func priceProblems(_ text: String) -> [String] {
        withFile("prices.json", text) { url in
            do throws(BillingError) {
                _ = try PriceTable.load(contentsOf: url)
                return []
            } catch {
                #expect(!error.problems.isEmpty && error.problems.allSatisfy { $0.file == url.path }, "\(error)")
                return error.problems.map(\.path)
            }
        }
    }

    @Test(arguments: [
        (#"{"tiers": [{"name": "a", "maxPixels": 0}], "tiers": []}"#, ["$.tiers"]),
        (#"{"tiers": [{"name": "a", "name": "b", "maxPixels": 0}]}"#, ["$.tiers[0].name"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 0}], "overflow": "big"}"#, ["$.overflow"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 0, "price": 1}]}"#, ["$.tiers[0].price"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 5}, {"name": "b", "maxPixels": 5}]}"#, ["$.tiers[1].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 5}, {"name": "b", "maxPixels": 1}]}"#, ["$.tiers[1].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": -1}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 4611686018427387904}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 9223372036854775807}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 9007199254740993}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 1e400}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 1.5}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": "100"}]}"#, ["$.tiers[0].maxPixels"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 0}, {"name": "a", "maxPixels": 9}]}"#, ["$.tiers[1].name"]),
        (#"{"tiers": [{"name": "a", "maxPixels": 0}], "overflowTier": "a"}"#, ["$.overflowTier"]),
        (#"{"tiers": [{"name": "", "maxPixels": 0}]}"#, ["$.tiers[0].name"]),
        (#"{"tiers": []}"#, ["$.tiers"]),
        (#"{"overflowTier": "big"}"#, ["$.tiers"]),
        (#"[]"#, ["$"]),
        (#"{"tiers": [}"#, ["$"]),
    ])
    func brokenTierTables(text: String, paths: [String]) {
        #expect(Self.tierProblems(text) == paths)
    }

    @Test func tooManyTiers() {
        let tiers = (0...BillingLimits.maxTiers).map { #"{"name": "t\#($0)", "maxPixels": \#($0)}"# }
        #expect(Self.tierProblems(#"{"tiers": [\#(tiers.joined(separator: ","))]}"#) == ["$.tiers"])
    }

    @Test func aGoodTierTableLoads() throws {
        let tiers = try Self.withFile("tiers.json", Self.goodTiers) { try BillingTiers.load(contentsOf: $0) }
        #expect(tiers.names == ["audio", "SD", "big"])
    }

    @Test(arguments: [
        (#"{"currency": "USD", "perMinute": {"HD": -0.01}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "perMinute": {"HD": 1e400}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "perMinute": {"HD": -1e400}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "perMinute": {"HD": 1000000.5}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "perMinute": {"HD": "0.99"}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "perMinute": {"HD": 0.99, "HD": 0.5}}"#, ["$.perMinute.HD"]),
        (#"{"currency": "USD", "currency": "EUR", "perMinute": {}}"#, ["$.currency"]),
        (#"{"currency": "USD", "perMinute": {"HD": 0.99}, "perminute": {}}"#, ["$.perminute"]),
        (#"{"currency": "", "perMinute": {}}"#, ["$.currency"]),
        (#"{"perMinute": {"HD": 0.99}}"#, ["$.currency"]),
        (#"{"currency": "USD"}"#, ["$.perMinute"]),
        (#"{"currency": "USD", "perMinute": [0.99]}"#, ["$.perMinute"]),
    ])
    func brokenPriceTables(text: String, paths: [String]) {
        #expect(Self.priceProblems(text) == paths)
    }

    @Test func missingFilesSaySoPlainly() {
        let tiers = URL(fileURLWithPath: "/nonexistent/stagemix/tiers.json")
        let prices = URL(fileURLWithPath: "/nonexistent/stagemix/prices.json")
        #expect(throws: BillingError("cannot read /nonexistent/stagemix/tiers.json: no such file")) {
            try BillingTiers.load(contentsOf: tiers)
        }
        #expect(throws: BillingError("cannot read /nonexistent/stagemix/prices.json: no such file")) {
            try PriceTable.load(contentsOf: prices)
        }
    }

    @Test func aMisspeltTierIsAnErrorAgainstTheTableInUse() throws {
        let prices = try Self.withFile("prices.json", #"{"currency": "USD", "perMinute": {"HD": 0.99, "Ful HD": 2}}"#) {
            try PriceTable.load(contentsOf: $0)
        }
        do {
            try prices.check(against: .agora)
            Issue.record("accepted a misspelt tier")
        } catch {
            #expect(error.problems.map(\.path) == ["$.perMinute['Ful HD']"])
            #expect(error.problems.first?.file.hasSuffix("prices.json") == true)
            #expect(error.description.contains(#"found "Ful HD", which is not one"#))
        }
        // The overflow tier is a tier in use too.
        let overflowPrices = PriceTable(currency: "USD", perMinute: ["huge": 9])
        #expect(throws: BillingError.self) { try overflowPrices.check(against: .agora) }
        try overflowPrices.check(against: BillingTiers(tiers: BillingTiers.agora.tiers, overflowTier: "huge"))
    }

    @Test func billingRefusesAPriceTableThatDoesNotFit() throws {
        let plan = BillingTests().scenario()
        let misspelt = PriceTable(currency: "USD", perMinute: ["HD": 0.99, "FullHD": 2.0], file: "prices.json")
        #expect(throws: BillingError.self) { try BillingReport(plan: plan, prices: misspelt) }
        // Full HD minutes are billed, but the table has no price for them: not a cost of 0.
        let partial = PriceTable(currency: "USD", perMinute: ["HD": 0.99], file: "prices.json")
        do {
            _ = try BillingReport(plan: plan, prices: partial)
            Issue.record("costed minutes without a price")
        } catch {
            #expect(error.description == #"prices.json: $.perMinute: expected a price for every tier billed, found none for "Full HD" (2 min)"#)
        }
        let negative = PriceTable(currency: "USD", perMinute: ["HD": -1, "Full HD": .infinity])
        do {
            _ = try BillingReport(plan: plan, prices: negative)
            Issue.record("accepted negative and infinite prices")
        } catch {
            #expect(error.problems.map(\.path) == ["$.perMinute['Full HD']", "$.perMinute.HD"])
        }
    }

    @Test func tiersBuiltInCodeKeepTheSameRules() {
        #expect(throws: BillingError.self) { try BillingTiers(tiers: [.init(name: "a", maxPixels: Int.max)]) }
        #expect(throws: BillingError.self) { try BillingTiers(tiers: [.init(name: "a", maxPixels: -5)]) }
        #expect(throws: BillingError.self) { try BillingTiers(tiers: [.init(name: "a", maxPixels: 1)], overflowTier: "a") }
        #expect(throws: BillingError.self) { try BillingTiers(tiers: [.init(name: "a", maxPixels: 1)], overflowTier: "") }
    }
}
