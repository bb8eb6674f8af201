/// Antialiased text as coverage, 0 (none) to 255 (full), one byte a pixel, rows top first: drawn
/// once and blended into canvases as often as needed (`CanvasFrame.blend(_:at:color:)`).
public struct CoverageMask: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let coverage: [UInt8]

    public init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height)
        self.width = width
        self.height = height
        self.coverage = coverage
    }

    public subscript(x: Int, y: Int) -> UInt8 { coverage[y * width + x] }
}
