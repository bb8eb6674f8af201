/// An opaque 8-bit sRGB colour, written in JSON as `"#RRGGBB"`.
public struct RGBColor: Sendable, Hashable, Codable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses `"#RRGGBB"` (either case).
    public init(hex: String) throws(InvalidColor) {
        let digits = hex.utf8
        guard digits.count == 7, digits.first == UInt8(ascii: "#"),
              let value = UInt32(hex.dropFirst(), radix: 16),
              hex.dropFirst().allSatisfy(\.isHexDigit)
        else { throw InvalidColor(text: hex) }
        self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    /// `"#RRGGBB"` in upper case.
    public var hex: String {
        "#" + [r, g, b].map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    public static let black = RGBColor(r: 0, g: 0, b: 0)
    public static let white = RGBColor(r: 255, g: 255, b: 255)

    /// Whether every channel is within `tolerance` of `other`'s (decoded video is never exact).
    public func isClose(to other: RGBColor, tolerance: Int) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance
            && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(hex: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    /// Thrown by `RGBColor(hex:)` for text that is not `"#RRGGBB"`.
    public struct InvalidColor: Error, Sendable, CustomStringConvertible {
        public var text: String
        public var description: String { "expected a colour \"#RRGGBB\", found \"\(text)\"" }
    }
}
