/// A tile shape such as 16:9, written in layouts as `"16:9"`.
public struct TileAspect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `"W:H"` with both numbers positive.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    public var ratio: Double { Double(width) / Double(height) }
    public var description: String { "\(width):\(height)" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let aspect = TileAspect(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \"W:H\", found \"\(text)\"")
        }
        self = aspect
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
