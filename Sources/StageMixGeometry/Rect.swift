/// An integer pixel rectangle on the canvas (or, for a crop, inside a source frame).
///
/// Rectangles that layouts produce have even `x`, `y`, `width` and `height`,
/// because 4:2:0 video subsamples chroma by two in both directions.
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when every coordinate and size is even.
    public var isEven: Bool { [x, y, width, height].allSatisfy { $0 % 2 == 0 } }

    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Whether the pixel (px, py) lies inside the rectangle.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// True when the two rectangles share some area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
