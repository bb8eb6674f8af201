/// A source shown in one cell of a Twilio region over `[fromMs, toMs)`.
public struct TwilioCellAssignment: Sendable, Hashable, Codable, CustomStringConvertible {
    public var region: String
    public var cell: Int
    public var trackId: String
    public var fromMs: Int
    public var toMs: Int

    public init(region: String, cell: Int, trackId: String, fromMs: Int, toMs: Int) {
        self.region = region
        self.cell = cell
        self.trackId = trackId
        self.fromMs = fromMs
        self.toMs = toMs
    }

    public var description: String { "\(region)[\(cell)] \(trackId) \(fromMs)-\(toMs)" }
}
