public import Foundation
import StageMixJSON

extension BillingTiers {
    /// Reads `{"tiers": [{"name": "HD", "maxPixels": 921600}, ...], "overflowTier": "..."}` strictly:
    /// unknown or repeated members, wrong types, values out of range and tiers out of order are
    /// each a problem naming the file and JSON path.
    public static func load(contentsOf url: URL) throws(BillingError) -> BillingTiers {
        try parse(BillingTableFile.root(of: url), file: BillingTableFile.name(of: url))
    }

    static func parse(_ root: JSONValue, file: String) throws(BillingError) -> BillingTiers {
        var walker = JSONWalker(file: file)
        let path = JSONPath.root
        guard let document = walker.object(root, at: path, expected: "an object {\"tiers\": [...], \"overflowTier\": ...}") else {
            throw BillingError(problems: walker.problems)
        }
        walker.rejectUnknown(document, allowed: ["tiers", "overflowTier"], at: path)
        let elements = walker.array(document, "tiers", at: path, of: "tiers", limit: BillingLimits.maxTiers)
        var tiers: [Tier] = []
        for (i, element) in (elements ?? []).enumerated() {
            let itemPath = path.key("tiers").index(i)
            guard let object = walker.object(element, at: itemPath) else { continue }
            walker.rejectUnknown(object, allowed: ["name", "maxPixels"], at: itemPath)
            let name = walker.field(object, "name", at: itemPath, expected: "a non-empty string", JSONConvert.nonEmptyString)
            let maxPixels = walker.field(object, "maxPixels", at: itemPath, expected: maxPixelsExpected,
                                         JSONConvert.integer(in: BillingLimits.tierPixels))
            if let name, let maxPixels { tiers.append(Tier(name: name, maxPixels: maxPixels)) }
        }
        let overflowTier = walker.field(document, "overflowTier", at: path, required: false,
                                        expected: "a non-empty tier name", JSONConvert.nonEmptyString)
        // The table's own rules need every tier read, or the paths they name would be off.
        if let elements, tiers.count == elements.count {
            check(tiers, overflowTier: overflowTier, into: &walker)
        }
        guard walker.problems.isEmpty else { throw BillingError(problems: walker.problems) }
        return try BillingTiers(tiers: tiers, overflowTier: overflowTier)
    }
}
