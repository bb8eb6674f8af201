import Foundation

/// Prices per minute for each tier, to turn minutes into a cost.
public struct PriceTable: Sendable, Hashable, Codable {
    public var currency: String
    /// Tier name to price of one minute.
    public var perMinute: [String: Double]

    public init(currency: String, perMinute: [String: Double]) {
        self.currency = currency; self.perMinute = perMinute
    }

    /// Reads `{"currency": "USD", "perMinute": {"HD": 0.00399, ...}}`.
    public static func load(contentsOf url: URL) throws -> PriceTable {
        try JSONDecoder().decode(PriceTable.self, from: Data(contentsOf: url))
    }
}
