import Foundation
import Testing
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline

@Suite("Name labels")
struct LabelPainterTests {
    let typesetter = NameTypesetter()
    var painter: LabelPainter { LabelPainter(typesetter: typesetter) }
    static let tile = Rect(x: 100, y: 60, width: 420, height: 236)

    func label(_ text: String, _ style: LabelStyle = LabelStyle()) -> PlannedLabel {
        PlannedLabel(text: text, style: style)
    }

    @Test func aShortNameIsShownWholeInTheBottomLeftCorner() throws {
        let placed = try #require(painter.placement(of: label("José Núñez"), in: Self.tile))
        #expect(placed.text == "José Núñez")
        #expect(placed.plate.x == Self.tile.x + 8)
        #expect(placed.plate.y + placed.plate.height == Self.tile.y + Self.tile.height - 8)
        #expect([placed.plate.x, placed.plate.y, placed.plate.width, placed.plate.height].allSatisfy { $0 % 2 == 0 })
    }

    @Test("each position puts the plate in its corner, margin away from the edges", arguments: LabelPosition.allCases)
    func corners(position: LabelPosition) throws {
        let style = LabelStyle(position: position, margin: 12)
        let plate = try #require(painter.placement(of: label("Maya", style), in: Self.tile)).plate
        let t = Self.tile
        #expect(position.isLeft ? plate.x == t.x + 12 : plate.x + plate.width == t.x + t.width - 12)
        #expect(position.isBottom ? plate.y + plate.height == t.y + t.height - 12 : plate.y == t.y + 12)
    }

    @Test func aLongNameIsCutWithAnEllipsisToFitItsTile() throws {
        let name = "Maximiliana Alexandrovna Featherstonehaugh-Montmorency"
        let narrow = Rect(x: 0, y: 0, width: 248, height: 140)
        let placed = try #require(painter.placement(of: label(name), in: narrow))
        #expect(placed.text.hasSuffix("…"))
        #expect(name.hasPrefix(String(placed.text.dropLast())))
        #expect(placed.text.count > 5, "as much of the name as fits: \(placed.text)")
        #expect(placed.plate.x + placed.plate.width <= narrow.width - 8, "inside the tile, margin kept")
        // One more character would not have fitted.
        let longer = String(name.prefix(placed.text.count)) + "…"
        #expect(typesetter.width(longer, size: placed.size) > narrow.width - 16 - 2 * ((placed.size / 3 + 1) & ~1))
    }

    @Test func aNameNoFontCanDrawGivesInitialsNotBoxes() throws {
        // Ethiopic is in no font of the chain (the compositor shows such a name as the participant id).
        let placed = try #require(painter.placement(of: label("አበበ Rao"), in: Self.tile))
        #expect(placed.text == "R")
        #expect(painter.placement(of: label("አበበ በቀለ"), in: Self.tile) == nil, "nothing drawable: no label at all")
    }

    /// Chinese is drawn when a CJK font of the chain is installed (fonts-noto-cjk), and otherwise
    /// falls back to the Latin initial or to no label, never to boxes.
    @Test func cjkNamesComeFromTheFallbackFontWhenOneIsInstalled() throws {
        let cjkInstalled = TextRasteriser.defaultFontFiles.dropFirst(2).contains { FileManager.default.fileExists(atPath: $0) }
        let mixed = try #require(painter.placement(of: label("李明 Wei"), in: Self.tile))
        #expect(mixed.text == (cjkInstalled ? "李明 Wei" : "W"))
        #expect((painter.placement(of: label("李明"), in: Self.tile)?.text) == (cjkInstalled ? "李明" : nil))
    }

    @Test func aSmallTileGetsSmallerTextAndATinyOneNone() throws {
        let small = Rect(x: 0, y: 0, width: 160, height: 90)
        let placed = try #require(painter.placement(of: label("Omar"), in: small))
        #expect(placed.size < LabelStyle.defaultSize)
        #expect(Double(placed.plate.height) <= 90 * LabelPainter.maxShareOfTileHeight + 2)
        #expect(painter.placement(of: label("Omar"), in: Rect(x: 0, y: 0, width: 40, height: 20)) == nil)
    }

    @Test func paintingLaysAPlateAndTextInTheirColours() throws {
        let canvas = try CanvasFrame(width: 640, height: 360)
        let grey = RGBColor(r: 128, g: 128, b: 128)
        try canvas.fill(color: grey)
        let style = LabelStyle(color: RGBColor(r: 255, g: 255, b: 0), plate: .black, plateOpacity: 0.5)
        try painter.paint(label("HHHH", style), in: Self.tile, on: canvas)
        let placed = try #require(painter.placement(of: label("HHHH", style), in: Self.tile))
        // The plate's corner: half way from grey to black.
        let corner = canvas.pixelRGB(x: placed.plate.x + 1, y: placed.plate.y + 1)
        #expect(corner.isClose(to: RGBColor(r: 64, g: 64, b: 64), tolerance: 6), "\(corner)")
        // Outside the plate, untouched.
        #expect(canvas.pixelRGB(x: placed.plate.x - 2, y: placed.plate.y - 2).isClose(to: grey, tolerance: 2))
        // Some pixel of the H's stems is the text's yellow, luma and chroma.
        var yellow = 0
        for y in placed.plate.y..<(placed.plate.y + placed.plate.height) {
            for x in placed.plate.x..<(placed.plate.x + placed.plate.width)
            where canvas.pixelRGB(x: x, y: y).isClose(to: style.color, tolerance: 12) { yellow += 1 }
        }
        #expect(yellow > 40, "\(yellow) yellow pixels")
    }

    @Test func eachTextIsRasterisedOnceAndKept() throws {
        let first = try #require(try typesetter.mask("Maya", size: 20))
        let again = try #require(try typesetter.mask("Maya", size: 20))
        #expect(first == again)
        #expect(first.width == typesetter.width("Maya", size: 20) || first.width == typesetter.width("Maya", size: 20) + 1)
        #expect(first.coverage.contains(255) && first.coverage.contains(0), "antialiased text, not a block")
        #expect(Set(first.coverage).count > 8, "antialiased: many levels of coverage")
    }

    @Test func fontsComeFromTheEnvironmentWhenGiven() {
        #expect(NameTypesetter.fontFiles(environment: ["STAGEMIX_FONTS": "/a.ttf:/b.otf"]) == ["/a.ttf", "/b.otf"])
        #expect(NameTypesetter.fontFiles(environment: [:]) == TextRasteriser.defaultFontFiles)
        let none = NameTypesetter(fontFiles: ["/nonexistent/font.ttf"])
        #expect(none.problem?.contains("fonts-dejavu-core") == true)
        #expect(none.fit("Maya", size: 20, maxWidth: 400) == nil)
    }
}
