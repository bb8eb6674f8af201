/// An 8-bit sRGB colour, as used to fill canvas regions and to check pixels in tests.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    public static let black = RGBColor(r: 0, g: 0, b: 0)
    public static let white = RGBColor(r: 255, g: 255, b: 255)

    public var description: String { "rgb(\(r), \(g), \(b))" }

    /// Whether every channel is within `tolerance` of `other`'s.
    public func isClose(to other: RGBColor, tolerance: Int) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance
            && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance
    }
}
