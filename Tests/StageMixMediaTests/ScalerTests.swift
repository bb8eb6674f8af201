import Testing
import StageMixMedia

@Suite struct ScalerTests {
    let red = RGBColor(r: 220, g: 30, b: 30)
    let blue = RGBColor(r: 20, g: 40, b: 200)
    let green = RGBColor(r: 30, g: 200, b: 60)

    @Test func scalesIntoSubRectangleOnly() throws {
        let source = try CanvasFrame(width: 32, height: 32)
        try source.fill(color: red)
        let canvas = try CanvasFrame(width: 64, height: 48)
        try canvas.fill(color: blue)
        let rect = Rect(x: 10, y: 8, width: 20, height: 16)
        let scaler = Scaler()
        try scaler.scale(try source.snapshot(), into: canvas, rect: rect)
        for y in 0..<48 {
            for x in 0..<64 {
                let expected = rect.contains(x: x, y: y) ? red : blue
                let pixel = canvas.pixelRGB(x: x, y: y)
                #expect(pixel.isClose(to: expected, tolerance: 3), "(\(x),\(y)) is \(pixel), want \(expected)")
            }
        }
    }

    /// A tile touching the canvas's right edge: swscale's vector stores run past the row end, which
    /// must land in row padding, not at the start of the next row (seen as a stripe down the left edge).
    @Test func tileAtTheRightEdgeLeavesTheNextRowsStartAlone() throws {
        let source = try CanvasFrame(width: 640, height: 360)
        try source.fill(color: red)
        let canvas = try CanvasFrame(width: 1280, height: 720)
        try canvas.fill(color: blue)
        try Scaler().scale(try source.snapshot(), into: canvas, rect: Rect(x: 644, y: 180, width: 636, height: 356))
        for y in stride(from: 180, to: 540, by: 7) {
            for x in [0, 1, 2, 3, 4, 8, 16, 31, 63] {
                #expect(canvas.pixelRGB(x: x, y: y).isClose(to: blue, tolerance: 3), "(\(x),\(y))")
            }
        }
        // Copy-on-write keeps the padding: a shared canvas drawn on again behaves the same.
        let held = try canvas.snapshot()
        try Scaler().scale(try source.snapshot(), into: canvas, rect: Rect(x: 644, y: 180, width: 636, height: 356))
        #expect(canvas.pixelRGB(x: 0, y: 200).isClose(to: blue, tolerance: 3))
        _ = held
    }

    @Test func cropsTheSource() throws {
        let source = try CanvasFrame(width: 32, height: 16)
        try source.fill(color: red)
        try source.fill(rect: Rect(x: 16, y: 0, width: 16, height: 16), color: green)
        let canvas = try CanvasFrame(width: 32, height: 32)
        try canvas.fill(color: blue)
        try Scaler().scale(try source.snapshot(), into: canvas, rect: Rect(x: 0, y: 0, width: 32, height: 32),
                           sourceCrop: Rect(x: 16, y: 0, width: 16, height: 16))
        for (x, y) in [(0, 0), (31, 31), (16, 16), (2, 30)] {
            #expect(canvas.pixelRGB(x: x, y: y).isClose(to: green, tolerance: 3))
        }
    }

    @Test(arguments: [Scaler.Path.kernel, .swscale])
    func rebuildsItsPlanOnlyWhenGeometryChanges(path: Scaler.Path) throws {
        let source = try CanvasFrame(width: 32, height: 32)
        try source.fill(color: red)
        let frame = try source.snapshot()
        let canvas = try CanvasFrame(width: 64, height: 64)
        let scaler = Scaler(path: path)
        let builds = { path == .kernel ? scaler.fitBuilds : scaler.contextBuilds }
        try scaler.scale(frame, into: canvas, rect: Rect(x: 0, y: 0, width: 16, height: 16))
        try scaler.scale(frame, into: canvas, rect: Rect(x: 32, y: 32, width: 16, height: 16))
        #expect(builds() == 1)
        try scaler.scale(frame, into: canvas, rect: Rect(x: 0, y: 0, width: 24, height: 24))
        #expect(builds() == 2)
        #expect((path == .kernel ? scaler.contextBuilds : scaler.fitBuilds) == 0)
        #expect(canvas.pixelRGB(x: 12, y: 12).isClose(to: red, tolerance: 3))
    }

    /// Same size and format: rows are copied, swscale is not involved, the pixels are exact.
    @Test func matchingSizesAreCopiedWithoutSwscale() throws {
        let source = try CanvasFrame(width: 64, height: 36)
        try source.fill(color: red)
        try source.fill(rect: Rect(x: 0, y: 0, width: 8, height: 8), color: green)
        let canvas = try CanvasFrame(width: 128, height: 72)
        try canvas.fill(color: blue)
        let scaler = Scaler()
        // A centred 60x32 crop of the 64x36 picture into a 60x32 rectangle.
        try scaler.scale(try source.snapshot(), into: canvas, rect: Rect(x: 10, y: 20, width: 60, height: 32),
                         sourceCrop: Rect(x: 2, y: 2, width: 60, height: 32))
        #expect(scaler.copies == 1)
        #expect(scaler.contextBuilds == 0)
        #expect(canvas.pixelRGB(x: 10, y: 20).isClose(to: green, tolerance: 3))   // source (2,2)
        #expect(canvas.pixelRGB(x: 16, y: 26).isClose(to: red, tolerance: 3))     // source (8,8)
        #expect(canvas.pixelRGB(x: 69, y: 51).isClose(to: red, tolerance: 3))
        #expect(canvas.pixelRGB(x: 70, y: 51).isClose(to: blue, tolerance: 3))
        #expect(canvas.pixelRGB(x: 9, y: 20).isClose(to: blue, tolerance: 3))
    }

    @Test func snapshotIsNotChangedByLaterDrawing() throws {
        let canvas = try CanvasFrame(width: 16, height: 16)
        try canvas.fill(color: red)
        let held = try canvas.snapshot()
        try canvas.fill(color: blue)
        #expect(try #require(held.pixelRGB(x: 4, y: 4)).isClose(to: red, tolerance: 3))
        #expect(canvas.pixelRGB(x: 4, y: 4).isClose(to: blue, tolerance: 3))
    }

    @Test func fillRoundTripsThroughBT709() throws {
        let canvas = try CanvasFrame(width: 4, height: 4)
        for colour in [RGBColor.white, .black, red, green, blue, RGBColor(r: 128, g: 128, b: 128)] {
            try canvas.fill(color: colour)
            #expect(canvas.pixelRGB(x: 1, y: 1).isClose(to: colour, tolerance: 2), "\(colour)")
        }
    }
}
