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

    /// The row loops (C, vectorised, AVX2 where the CPU has it) against the colours drawn, on a picture
    /// whose every 2x2 block has its own colour and whose rows are no whole number of vectors (950 luma,
    /// 475 chroma samples), converted in place and copied-and-converted to another position.
    @Test(arguments: [YUVColourSpace.bt601, YUVColourSpace(matrix: .bt601, fullRange: true)])
    func everyPixelOfAWidePictureIsConverted(space: YUVColourSpace) throws {
        let width = 950, height = 24
        let source = try CanvasFrame(width: width, height: height, colourSpace: space)
        func colour(_ bx: Int, _ by: Int) -> RGBColor {
            RGBColor(r: UInt8((bx * 37 + by * 11) % 224 + 16), g: UInt8((bx * 53 + by * 29) % 224 + 16), b: UInt8((bx * 71 + by * 7) % 224 + 16))
        }
        for by in 0..<(height / 2) {
            for bx in 0..<(width / 2) { try source.fill(rect: Rect(x: 2 * bx, y: 2 * by, width: 2, height: 2), color: colour(bx, by)) }
        }
        let canvas = try CanvasFrame(width: width + 10, height: height + 4)
        try canvas.fill(color: .black)
        let conversion = ColourConversion(from: space, to: .bt709)
        conversion.convert(from: source.pointer, origin: (0, 0), to: canvas.pointer, rect: Rect(x: 4, y: 2, width: width, height: height))
        conversion.apply(to: source.pointer, rect: Rect(x: 0, y: 0, width: width, height: height))
        var worst = 0
        for by in 0..<(height / 2) {
            for bx in 0..<(width / 2) {
                let want = colour(bx, by)
                for (got, label) in [(canvas.pixelRGB(x: 4 + 2 * bx + 1, y: 2 + 2 * by), "copied"),
                                     (readYUV420PPixel(source.pointer, x: 2 * bx, y: 2 * by, in: .bt709), "in place")] {
                    let error = max(abs(Int(got.r) - Int(want.r)), abs(Int(got.g) - Int(want.g)), abs(Int(got.b) - Int(want.b)))
                    worst = max(worst, error)
                    if error > 3 { Issue.record("\(label) block (\(bx), \(by)): \(got), want \(want)"); return }
                }
            }
        }
        #expect(worst <= 3)
        // Nothing outside the rectangle was touched: the canvas's black border stays black.
        #expect(canvas.pixelRGB(x: 1, y: 1).isClose(to: .black, tolerance: 2))
        #expect(canvas.pixelRGB(x: width + 6, y: 10).isClose(to: .black, tolerance: 2))
    }
}
