public import Foundation
import StageMixJSON

extension PriceTable {
    /// Reads `{"currency": "USD", "perMinute": {"HD": 0.00399, ...}}` strictly: unknown or repeated
    /// members, wrong types and prices out of range are each a problem naming the file and JSON
    /// path. Tier names are checked later, against the tier table in use (`check(against:)`).
    public static func load(contentsOf url: URL) throws(BillingError) -> PriceTable {
        try parse(BillingTableFile.root(of: url), file: BillingTableFile.name(of: url))
    }

    static func parse(_ root: JSONValue, file: String) throws(BillingError) -> PriceTable {
        var walker = JSONWalker(file: file)
        let path = JSONPath.root
        guard let document = walker.object(root, at: path, expected: "an object {\"currency\": ..., \"perMinute\": {...}}") else {
            throw BillingError(problems: walker.problems)
        }
        walker.rejectUnknown(document, allowed: ["currency", "perMinute"], at: path)
        let currency = walker.field(document, "currency", at: path, expected: "a non-empty string", JSONConvert.nonEmptyString)
        var perMinute: [String: Double] = [:]
        if let value = document["perMinute"] {
            if let prices = walker.object(value, at: path.key("perMinute"), expected: "an object mapping tier names to prices") {
                if prices.members.count > BillingLimits.maxTiers + 1 {
                    walker.problem(path.key("perMinute"), expected: "at most \(BillingLimits.maxTiers + 1) prices (docs/limits.md)",
                                   found: "\(prices.members.count)")
                }
                for (name, price) in prices.members where perMinute[name] == nil {
                    let pricePath = path.key("perMinute").key(name)
                    if name.isEmpty { walker.problem(pricePath, expected: "a non-empty tier name", found: "an empty name") }
                    perMinute[name] = walker.value(price, at: pricePath, expected: priceExpected) { value in
                        if case .number(let number) = value, validPrice(number.value) { return number.value }
                        return nil
                    }
                }
            }
        } else {
            walker.problem(path.key("perMinute"), expected: "an object mapping tier names to prices", found: "nothing (the member is missing)")
        }
        guard walker.problems.isEmpty, let currency else { throw BillingError(problems: walker.problems) }
        return PriceTable(currency: currency, perMinute: perMinute, file: file)
    }
}
