import Foundation
import Testing
@testable import StageMixMedia

/// Colour spaces and the in-place conversion into the canvas's BT.709 limited range.
@Suite("colour conversion")
struct ColourConversionTests {
    static let colours = [RGBColor(r: 255, g: 0, b: 0), RGBColor(r: 0, g: 255, b: 0), RGBColor(r: 0, g: 0, b: 255),
                          RGBColor(r: 200, g: 40, b: 60), RGBColor(r: 30, g: 160, b: 90), RGBColor(r: 128, g: 128, b: 128),
                          RGBColor(r: 16, g: 16, b: 16), RGBColor(r: 250, g: 250, b: 250)]

    /// A source picture of `colour` in `space`, converted into a BT.709 limited canvas, reads back as `colour`.
    @Test(arguments: [YUVColourSpace.bt601, YUVColourSpace(matrix: .bt601, fullRange: true),
                      YUVColourSpace(matrix: .bt709, fullRange: true), YUVColourSpace(matrix: .bt2020)])
    func everySourceSpaceLandsOnTheSameRGB(space: YUVColourSpace) throws {
        let canvas = try CanvasFrame(width: 16, height: 16)
        for colour in Self.colours {
            // The source's values written straight into the canvas's planes, then converted there.
            let yuv = space.yuv(from: colour)
            let source = try CanvasFrame(width: 16, height: 16, colourSpace: space)
            try source.fill(color: colour)
            #expect(source.pixelRGB(x: 3, y: 3).isClose(to: colour, tolerance: 2))
            try canvas.fill(color: .black)
            try Scaler().scale(try source.snapshot(), into: canvas, rect: Rect(x: 0, y: 0, width: 16, height: 16))
            let out = canvas.pixelRGB(x: 5, y: 5)
            #expect(out.isClose(to: colour, tolerance: 2), "\(space) \(colour) \(yuv) -> \(out)")
            // Scaled by swscale (values untouched there, a full-range source's too), then converted.
            try canvas.fill(color: .black)
            try Scaler().scale(try source.snapshot(), into: canvas, rect: Rect(x: 0, y: 0, width: 8, height: 8))
            let scaled = canvas.pixelRGB(x: 3, y: 3)
            #expect(scaled.isClose(to: colour, tolerance: 2), "scaled: \(space) \(colour) -> \(scaled)")
        }
    }

    @Test func bt601RedBecomesBT709Red() throws {
        // BT.601 limited red is (81, 90, 240); BT.709 limited red is (63, 102, 240).
        #expect(YUVColourSpace.bt601.yuv(from: RGBColor(r: 255, g: 0, b: 0)) == (81, 90, 240))
        #expect(YUVColourSpace.bt709.yuv(from: RGBColor(r: 255, g: 0, b: 0)) == (63, 102, 240))
        let source = try CanvasFrame(width: 8, height: 8, colourSpace: .bt601)
        try source.fill(color: RGBColor(r: 255, g: 0, b: 0))
        let canvas = try CanvasFrame(width: 8, height: 8)
        let scaler = Scaler()
        try scaler.scale(try source.snapshot(), into: canvas, rect: Rect(x: 0, y: 0, width: 8, height: 8))
        #expect(scaler.copies == 1 && scaler.conversions == 1)
        let same = try CanvasFrame(width: 8, height: 8)
        try scaler.scale(try same.snapshot(), into: canvas, rect: Rect(x: 0, y: 0, width: 8, height: 8))
        #expect(scaler.conversions == 1, "a BT.709 limited picture is copied as it is")
    }
}
