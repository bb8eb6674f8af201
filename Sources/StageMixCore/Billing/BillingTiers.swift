import Foundation

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

    public init(tiers: [Tier], overflowTier: String? = nil) throws(BillingError) {
        guard !tiers.isEmpty else { throw BillingError("a tier table needs at least one tier") }
        for (a, b) in zip(tiers, tiers.dropFirst()) where a.maxPixels >= b.maxPixels {
            throw BillingError("tier \"\(b.name)\" must have a higher ceiling than \"\(a.name)\"")
        }
        self.tiers = tiers
        self.overflowTier = overflowTier
    }

    /// Reads `{"tiers": [{"name": "HD", "maxPixels": 921600}, ...], "overflowTier": "..."}`, checking the order.
    public static func load(contentsOf url: URL) throws -> BillingTiers {
        let decoded = try JSONDecoder().decode(BillingTiers.self, from: Data(contentsOf: url))
        do {
            return try BillingTiers(tiers: decoded.tiers, overflowTier: decoded.overflowTier)
        } catch {
            throw BillingError("\(url.path): \(error)")
        }
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
}

/// A billing computation that cannot be completed as configured.
public struct BillingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
