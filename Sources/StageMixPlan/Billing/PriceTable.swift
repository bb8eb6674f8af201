import StageMixJSON
/// Prices per minute for each tier, to turn minutes into a cost.
public struct PriceTable: Sendable, Hashable, Codable {
    public var currency: String
    /// Tier name to price of one minute.
    public var perMinute: [String: Double]
    /// The file the table was read from, to name it in problems; `nil` for a table built in code.
    public var file: String?

    private enum CodingKeys: String, CodingKey { case currency, perMinute }

    public init(currency: String, perMinute: [String: Double], file: String? = nil) {
        self.currency = currency; self.perMinute = perMinute; self.file = file
    }

    /// Checks the table against the tiers it will price: a non-empty currency, every price finite and
    /// within `BillingLimits.pricePerMinute`, and every tier named one that `tiers` can bill (a
    /// misspelt name would otherwise cost nothing).
    public func check(against tiers: BillingTiers) throws(BillingError) {
        var walker = JSONWalker(file: file ?? "price table")
        checkValues(into: &walker)
        let names = tiers.names
        for name in perMinute.keys.sorted() where !names.contains(name) {
            walker.problem(JSONPath.root.key("perMinute").key(name),
                           expected: "a tier of the tier table in use (" + names.map { "\"\($0)\"" }.joined(separator: ", ") + ")",
                           found: "\"\(name)\", which is not one")
        }
        guard walker.problems.isEmpty else { throw BillingError(problems: walker.problems) }
    }

    /// The rules that need no tier table, shared by `check(against:)` and the loader.
    func checkValues(into walker: inout JSONWalker) {
        if currency.isEmpty { walker.problem(JSONPath.root.key("currency"), expected: "a non-empty string", found: "the string \"\"") }
        for (name, price) in perMinute.sorted(by: { $0.key < $1.key }) where !Self.validPrice(price) {
            walker.problem(JSONPath.root.key("perMinute").key(name), expected: Self.priceExpected, found: "\(price)")
        }
    }

    static func validPrice(_ price: Double) -> Bool { price.isFinite && BillingLimits.pricePerMinute.contains(price) }

    static let priceExpected = "a price per minute from \(BillingLimits.pricePerMinute.lowerBound) to "
        + "\(BillingLimits.pricePerMinute.upperBound) (docs/limits.md)"
}
