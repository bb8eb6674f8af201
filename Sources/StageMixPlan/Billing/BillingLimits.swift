/// The largest values a tier or price table may hold (docs/limits.md), so that costs and tier
/// lookups stay finite and exact.
public enum BillingLimits {
    /// Tiers in a tier table, besides the overflow tier.
    public static let maxTiers = 64
    /// A tier's `maxPixels`: up to a trillion, far above any aggregate a valid capture and layout can reach.
    public static let tierPixels = 0...1_000_000_000_000
    /// The price of one minute in one tier, in the table's currency.
    public static let pricePerMinute = 0.0...1_000_000.0
    /// A tier or price table file: a few hundred bytes in practice.
    public static let maxTableBytes = 1_024 * 1_024
}
