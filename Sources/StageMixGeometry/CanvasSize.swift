/// The pixel size of an output canvas or of a piece of content (a camera frame, a screen share).
public struct CanvasSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// 1280x720, the size every built-in layout is written for.
    public static let hd720 = CanvasSize(width: 1280, height: 720)

    public var description: String { "\(width)x\(height)" }
}
