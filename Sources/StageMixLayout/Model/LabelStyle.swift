/// How a region's tiles show their participant's name: which corner, how large, and the colours of
/// the text and of the translucent plate behind it. A region without one shows no names.
///
/// `size` and `margin` are pixels at the layout's canvas size and scale with it, as `gap` does.
public struct LabelStyle: Sendable, Hashable, Codable {
    public var position: LabelPosition
    /// The font's pixel size (its em): capitals are about 0.73 of it in DejaVu Sans.
    public var size: Int
    /// Pixels between the plate and the tile's edges.
    public var margin: Int
    /// The text's colour.
    public var color: RGBColor
    /// The plate's colour, drawn under the text at `plateOpacity`.
    public var plate: RGBColor
    /// 0 is no plate at all, 1 an opaque one.
    public var plateOpacity: Double

    public static let defaultPosition = LabelPosition.bottomLeft
    public static let defaultSize = 20
    public static let defaultMargin = 8
    public static let defaultColor = RGBColor.white
    public static let defaultPlate = RGBColor.black
    public static let defaultPlateOpacity = 0.6

    public init(position: LabelPosition = defaultPosition, size: Int = defaultSize, margin: Int = defaultMargin,
                color: RGBColor = defaultColor, plate: RGBColor = defaultPlate, plateOpacity: Double = defaultPlateOpacity) {
        self.position = position
        self.size = size
        self.margin = margin
        self.color = color
        self.plate = plate
        self.plateOpacity = plateOpacity
    }

    /// The same style on a canvas `scale` times the layout's: size and margin follow, at least 1 pixel of text.
    public func scaled(by scale: Double) -> LabelStyle {
        var copy = self
        copy.size = max(1, Int((Double(size) * scale).rounded()))
        copy.margin = Int((Double(margin) * scale).rounded())
        return copy
    }
}

/// The corner of its tile a label sits in.
public enum LabelPosition: String, Sendable, Hashable, Codable, CaseIterable {
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case topLeft = "top-left"
    case topRight = "top-right"

    public var isBottom: Bool { self == .bottomLeft || self == .bottomRight }
    public var isLeft: Bool { self == .bottomLeft || self == .topLeft }
}
