import Testing
import StageMixMedia
@testable import StageMixPipeline

@Suite("Placeholder card")
struct PlaceholderCardTests {
    /// FreeType objects belong to one thread: each test (and each `inkPoint`) has its own.
    let typesetter = NameTypesetter()

    /// A canvas point the card's text covers fully (with its neighbours, so video's chroma
    /// smoothing keeps it ink), or nil when the card has no text.
    static func inkPoint(for name: String, in tile: Rect) -> (Int, Int)? {
        let typesetter = NameTypesetter()
        guard let (text, size) = PlaceholderCard.text(for: name, in: tile, typesetter: typesetter),
              let mask = try? typesetter.mask(text, size: size) else { return nil }
        let x0 = (tile.x + (tile.width - mask.width) / 2) & ~1
        let y0 = (tile.y + tile.height * 9 / 20 - mask.height / 2) & ~1
        for y in 1..<max(1, mask.height - 1) {
            for x in 1..<max(1, mask.width - 1) where (-1...1).allSatisfy({ dy in (-1...1).allSatisfy { dx in mask[x + dx, y + dy] == 255 } }) {
                return (x0 + x, y0 + y)
            }
        }
        return nil
    }

    @Test func initialsAreTheFirstLettersOfTheFirstAndLastWords() {
        let t = typesetter
        #expect(t.initials(of: "Maya Lopez") == "ML")
        #expect(t.initials(of: "omar") == "O")
        #expect(t.initials(of: "Mary Ann Smith-Jones") == "MJ")
        #expect(t.initials(of: "José Núñez") == "JN")
        #expect(t.initials(of: "élodie durand") == "ÉD")
        #expect(t.initials(of: "DJ 3000") == "D3")
        #expect(t.initials(of: "  ") == "")
    }

    @Test func theNameIsShownWhenItFitsAndTheInitialsWhenItDoesNot() throws {
        let wide = Rect(x: 0, y: 0, width: 640, height: 360)
        #expect(PlaceholderCard.text(for: "José Núñez", in: wide, typesetter: typesetter)?.text == "José Núñez")
        let long = "Maximiliana Alexandrovna Featherstonehaugh-Montmorency"
        let card = try #require(PlaceholderCard.text(for: long, in: wide, typesetter: typesetter))
        #expect(card.text == "MM")
        #expect(card.size > PlaceholderCard.nameSize(in: wide), "initials are larger than a name")
        // Too small for legible text: the slate alone.
        #expect(PlaceholderCard.text(for: "Maya", in: Rect(x: 0, y: 0, width: 40, height: 22), typesetter: typesetter) == nil)
    }

    @Test func aNameNoFontCanDrawGivesItsDrawableInitialsOrNothing() throws {
        let t = typesetter
        // Ethiopic is in no font of the chain.
        let amharic = "አበበ በቀለ"
        try #require(!t.canDraw(amharic))
        let tile = Rect(x: 0, y: 0, width: 640, height: 360)
        #expect(PlaceholderCard.text(for: "\(amharic) Rao", in: tile, typesetter: t)?.text == "R")
        #expect(PlaceholderCard.text(for: amharic, in: tile, typesetter: t) == nil)
    }

    @Test func paintsTheNameInInkOnTheSlate() throws {
        let canvas = try CanvasFrame(width: 320, height: 180)
        try canvas.fill(color: .black)
        let tile = Rect(x: 0, y: 0, width: 320, height: 180)
        try PlaceholderCard.paint(name: "Lee", in: tile, on: canvas, typesetter: typesetter)
        let (x, y) = try #require(Self.inkPoint(for: "Lee", in: tile))
        #expect(canvas.pixelRGB(x: x, y: y).isClose(to: PlaceholderCard.ink, tolerance: 6))
        #expect(canvas.pixelRGB(x: 2, y: 2).isClose(to: PlaceholderCard.slate, tolerance: 6))
        #expect(canvas.pixelRGB(x: 160, y: 170).isClose(to: PlaceholderCard.slate, tolerance: 6))
        // Ink covers letters' worth of the card, not a bar or a block.
        var ink = 0
        for py in stride(from: 0, to: 180, by: 1) {
            for px in 0..<320 where canvas.pixelRGB(x: px, y: py).isClose(to: PlaceholderCard.ink, tolerance: 30) { ink += 1 }
        }
        #expect(ink > 100 && ink < 320 * 180 / 20, "\(ink) ink pixels")
    }
}
