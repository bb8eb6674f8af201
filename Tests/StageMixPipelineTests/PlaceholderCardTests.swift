import Testing
import StageMixCore
import StageMixMedia
@testable import StageMixPipeline

@Suite("Placeholder card")
struct PlaceholderCardTests {
    @Test func initialsAreTheFirstLettersOfTheFirstAndLastWords() {
        #expect(PlaceholderCard.initials(of: "Maya Lopez") == "ML")
        #expect(PlaceholderCard.initials(of: "omar") == "O")
        #expect(PlaceholderCard.initials(of: "Mary Ann Smith-Jones") == "MJ")
        #expect(PlaceholderCard.initials(of: "José Núñez") == "JN")
        #expect(PlaceholderCard.initials(of: "DJ 3000") == "D3")
        // Letters the font lacks are skipped; a name of none of them gives no text at all.
        #expect(PlaceholderCard.initials(of: "李 Wei") == "W")
        #expect(PlaceholderCard.initials(of: "李明") == "")
        #expect(PlaceholderCard.initials(of: "  ") == "")
    }

    @Test func strokesSitInTheMiddleOfTheTileClearOfItsLowerPart() {
        for tile in [Rect(x: 4, y: 0, width: 632, height: 356), Rect(x: 18, y: 2, width: 462, height: 260),
                     Rect(x: 0, y: 0, width: 1280, height: 720), Rect(x: 10, y: 10, width: 160, height: 90)] {
            let strokes = PlaceholderCard.strokes("MW", in: tile)
            #expect(!strokes.isEmpty, "\(tile)")
            for r in strokes {
                #expect(r.x >= tile.x && r.x + r.width <= tile.x + tile.width, "\(r) in \(tile)")
                #expect(r.y >= tile.y + tile.height / 4 && r.y + r.height <= tile.y + tile.height * 56 / 100, "\(r) in \(tile)")
                // Even origins and sizes: the 4:2:0 chroma of a stroke is exactly the ink's.
                #expect(r.x % 2 == 0 && r.y % 2 == 0 && r.width % 2 == 0 && r.height % 2 == 0, "\(r)")
            }
            let left = strokes.map(\.x).min()!, right = strokes.map { $0.x + $0.width }.max()!
            #expect(abs((left - tile.x) - (tile.x + tile.width - right)) <= 2, "centred in \(tile)")
        }
        // Too small for legible text: the slate alone.
        #expect(PlaceholderCard.strokes("MW", in: Rect(x: 0, y: 0, width: 40, height: 22)).isEmpty)
    }

    @Test func paintsTheGlyphsPixelsInInkOnTheSlate() throws {
        let canvas = try CanvasFrame(width: 320, height: 180)
        try canvas.fill(color: RGBColor(r: 0, g: 0, b: 0))
        let tile = Rect(x: 0, y: 0, width: 320, height: 180)
        try PlaceholderCard.paint(name: "Lee", in: tile, on: canvas)
        let strokes = PlaceholderCard.strokes("L", in: tile)
        // "L": a vertical bar down the left column, the bottom row all lit.
        let cell = strokes[0].width
        let bar = try #require(strokes.first)
        let inkAt = { (x: Int, y: Int) in canvas.pixelRGB(x: x, y: y).isClose(to: PlaceholderCard.ink, tolerance: 6) }
        #expect(inkAt(bar.x + cell / 2, bar.y + cell / 2))
        #expect(inkAt(bar.x + 4 * cell + cell / 2, bar.y + 6 * cell + cell / 2), "bottom row, last column")
        #expect(!inkAt(bar.x + 2 * cell + cell / 2, bar.y + 3 * cell + cell / 2), "the L's open middle")
        #expect(canvas.pixelRGB(x: 2, y: 2).isClose(to: PlaceholderCard.slate, tolerance: 6))
        #expect(canvas.pixelRGB(x: 160, y: 170).isClose(to: PlaceholderCard.slate, tolerance: 6))
    }
}
