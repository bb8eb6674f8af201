/// A rectangle in pixels, origin at the top-left of a picture.
public struct PixelRect: Hashable, Sendable {
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

    /// Whether (px, py) lies inside the rectangle.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The same rectangle with origin and size rounded down to even numbers,
    /// as 4:2:0 chroma planes need to address whole chroma samples.
    var alignedTo420: PixelRect {
        PixelRect(x: x & ~1, y: y & ~1, width: max(2, width & ~1), height: max(2, height & ~1))
    }
}
