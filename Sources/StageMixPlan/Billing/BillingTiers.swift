import StageMixJSON
/// Aggregate-resolution price tiers: a minute is billed at the first tier whose ceiling holds its peak.
public struct BillingTiers: Sendable, Hashable, Codable {
    /// One tier: everything up to `maxPixels` (inclusive). The audio tier has `maxPixels` 0.
    public struct Tier: Sendable, Hashable, Codable {
        public var name: String
        public var maxPixels: Int
        public init(name: String, maxPixels: Int) { self.name = name; self.maxPixels = maxPixels }
    }

    /// Ascending by `maxPixels`.
    public var tiers: [Tier]
    /// The tier for anything above the last ceiling; `nil` makes such a peak an error.
    public var overflowTier: String?

    /// Checks the table as a tier file would be checked; problems are named as paths in such a file.
    public init(tiers: [Tier], overflowTier: String? = nil) throws(BillingError) {
        var walker = JSONWalker(file: "tier table")
        Self.check(tiers, overflowTier: overflowTier, into: &walker)
        guard walker.problems.isEmpty else { throw BillingError(problems: walker.problems) }
        self.tiers = tiers
        self.overflowTier = overflowTier
    }

    /// Agora's aggregate-resolution tiers.
    public static let agora = try! BillingTiers(tiers: [
        Tier(name: "audio", maxPixels: 0),
        Tier(name: "HD", maxPixels: 921_600),
        Tier(name: "Full HD", maxPixels: 2_073_600),
        Tier(name: "2K", maxPixels: 3_686_400),
        Tier(name: "2K+", maxPixels: 8_847_360),
    ])

    /// The tier names in ascending order, overflow last.
    public var names: [String] { tiers.map(\.name) + (overflowTier.map { [$0] } ?? []) }

    /// The tier that holds an aggregate of `pixels`.
    public func tier(for pixels: Int) throws(BillingError) -> String {
        if let tier = tiers.first(where: { pixels <= $0.maxPixels }) { return tier.name }
        if let overflowTier { return overflowTier }
        throw BillingError("aggregate resolution \(pixels) px is above the highest tier \"\(tiers.last!.name)\" (\(tiers.last!.maxPixels) px) and no overflow tier is configured")
    }

    /// The rules a tier table keeps, whether read from a file or built in code: at least one tier and at
    /// most `BillingLimits.maxTiers`, names non-empty and distinct (the overflow tier's too), ceilings
    /// within `BillingLimits.tierPixels` and strictly ascending.
    static func check(_ tiers: [Tier], overflowTier: String?, into walker: inout JSONWalker) {
        let path = JSONPath.root.key("tiers")
        if tiers.isEmpty { walker.problem(path, expected: "at least one tier", found: "an empty array") }
        if tiers.count > BillingLimits.maxTiers {
            walker.problem(path, expected: "at most \(BillingLimits.maxTiers) tiers (docs/limits.md)", found: "\(tiers.count)")
        }
        var firstIndex: [String: Int] = [:]
        for (i, tier) in tiers.enumerated() {
            if tier.name.isEmpty {
                walker.problem(path.index(i).key("name"), expected: "a non-empty string", found: "the string \"\"")
            } else if let first = firstIndex[tier.name] {
                walker.problem(path.index(i).key("name"), expected: "a tier name not used before",
                               found: "\"\(tier.name)\", already the name of tiers[\(first)]")
            } else {
                firstIndex[tier.name] = i
            }
            if !BillingLimits.tierPixels.contains(tier.maxPixels) {
                walker.problem(path.index(i).key("maxPixels"), expected: maxPixelsExpected, found: "\(tier.maxPixels)")
            } else if i > 0, tiers[i - 1].maxPixels >= tier.maxPixels {
                walker.problem(path.index(i).key("maxPixels"),
                               expected: "more than \(tiers[i - 1].maxPixels), the maxPixels of tiers[\(i - 1)] (tiers ascend)",
                               found: "\(tier.maxPixels)")
            }
        }
        if let overflowTier {
            if overflowTier.isEmpty {
                walker.problem(JSONPath.root.key("overflowTier"), expected: "a non-empty tier name", found: "the string \"\"")
            } else if let index = firstIndex[overflowTier] {
                walker.problem(JSONPath.root.key("overflowTier"), expected: "a name not used by another tier",
                               found: "\"\(overflowTier)\", already the name of tiers[\(index)]")
            }
        }
    }

    static let maxPixelsExpected = "an integer from \(BillingLimits.tierPixels.lowerBound) to \(BillingLimits.tierPixels.upperBound) (pixels; docs/limits.md)"
}
